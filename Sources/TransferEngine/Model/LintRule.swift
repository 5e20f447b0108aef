/// A documented rule an app can break; the run reports each break as a `lint` trace event.
public enum LintRule: String, CaseIterable, Hashable, Sendable {
  case completionHandlerNeverCalled
  case completionHandlerCalledEarly
  case sessionNotRecreated
  case downloadedFileLost
  case uploadFromData
  case duplicateSessionIdentifier
  case resumeDataReused
  case oneTaskPerWake
  /// A background-task assertion was still open when its time ran out: the watchdog killed the app.
  case backgroundTaskNotEnded
  /// A data task in a background session: it fails with -997 once the app is suspended.
  case dataTaskInBackgroundSession
  /// A background session made without a delegate: its events have nowhere to go, and the app
  /// never learns that its transfers finished. Only Swift apps can do this (the JSON app always
  /// has a delegate).
  case backgroundSessionWithoutDelegate
  /// BgsimFoundation: a launch made a background session under a new identifier while an
  /// earlier launch's session with tasks was not recreated (`UUID().uuidString` identifiers).
  case sessionIdentifierChanged
  /// BgsimFoundation: the app called URLSession from a thread or queue the simulation does not
  /// wait for while simulated time moved, or kept queueing work without end.
  case callFromUndrainedQueue
  /// BgsimFoundation: the app's container changed while no process of the app was alive: code of
  /// a terminated process (a real thread, `asyncAfter` on wall-clock time) wrote to it.
  case writeAfterTermination
  /// BgsimFoundation: a completion-handler factory (`downloadTask(with:completionHandler:)`, ...)
  /// was called on a background session, which raises an exception on a device.
  case completionHandlerInBackgroundSession
  /// BgsimFoundation: a `Date` near the host's clock (`Date()`) instead of the simulation's crossed
  /// into the bridge (`earliestBeginDate`): the app read the wrong clock.
  case wallClockDate
  /// BgsimFoundation: app code on a queue the bridge drains ran while nothing simulated was
  /// running: a real-time timer fired, at a simulated time that depends on the host's speed.
  case wallClockTimer
}

extension LintRule {
  /// What `backgroundSessionWithoutDelegate` says, the same for the engine's apps and the bridge's.
  public static func sessionWithoutDelegateMessage(_ identifier: String) -> String {
    "background session '\(identifier)' was made without a delegate; a background session must have one "
      + "(its completion, progress and handleEvents calls have nowhere else to go): pass the object that "
      + "implements URLSessionDownloadDelegate"
  }
}
