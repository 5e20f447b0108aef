/// A documented rule an app can break; the run reports each break as a `lint` trace event.
public enum LintRule: String, CaseIterable, Hashable, Sendable {
  /// The app did not call a `handleEvents` completion handler within `completionHandlerTimeout`;
  /// the system suspends it anyway.
  case completionHandlerNeverCalled
  /// The app called the completion handler before `urlSessionDidFinishEvents`, while events
  /// were still being delivered: the system suspends it with work undone.
  case completionHandlerCalledEarly
  /// The system woke the app for a background session the app did not recreate, so the
  /// session's events stay queued.
  case sessionNotRecreated
  /// `didFinishDownloadingTo` returned without the file being moved: the system deletes it.
  case downloadedFileLost
  /// An upload from data in a background session: it fails once the app's process is gone;
  /// upload from a file instead.
  case uploadFromData
  /// A second background session was made with the identifier of one that exists; keep one
  /// session object per identifier.
  case duplicateSessionIdentifier
  /// The app called an API its device's iOS version does not have (upload resume data before
  /// iOS 17): the call does what its older form does.
  case apiUnavailable
  /// Resume data was handed back a second time; it is single use, so the task restarts from 0.
  case resumeDataReused
  /// The app starts one task per background wake: each wake raises the rate limiter's delay,
  /// so a queue of downloads takes ever longer. Start them together.
  case oneTaskPerWake
  /// A background-task assertion was still open when its time ran out: the watchdog killed the app.
  case backgroundTaskNotEnded
  /// A callback was still running (`AppContext.spend`, a reaction's `takes`) when a background
  /// wake's time ran out: the watchdog killed the app, and the events after it wait.
  case slowCallback
  /// A continued-processing task reported no progress for `continuedProcessing.progressWindow`
  /// and the system expired it: report progress in smaller steps.
  case continuedTaskExpired
  /// A continued-processing task was not ended with `setTaskCompleted`: its expiration handler
  /// returned without it, or it reported all its work done and was left running until it expired.
  case continuedTaskNeverCompleted
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
  /// BgsimFoundation: a task the app made and never resumed, when its process ended or after ten
  /// minutes of simulated time (a manager that recreates tasks from resume data and forgets them).
  case taskNeverResumed
  /// BgsimFoundation: the app moved a delivered file out of its container (to the host's home,
  /// which `NSHomeDirectory()` and FileManager's folders name in a simulation).
  case fileOutsideContainer
  /// BgsimFoundation: a path in another simulation's container reached the bridge (a `static let`
  /// computed in an earlier simulation of the same test process).
  case staleContainerPath
  /// BgsimFoundation: a `Date` near the host's clock (`Date()`) instead of the simulation's crossed
  /// into the bridge (`earliestBeginDate`): the app read the wrong clock.
  case wallClockDate
  /// BgsimFoundation: app code on a queue the bridge drains ran while nothing simulated was
  /// running: a real-time timer fired, at a simulated time that depends on the host's speed.
  case wallClockTimer
  /// An app extension made a background session without `sharedContainerIdentifier`: the
  /// session is invalidated at creation and its tasks fail with -995.
  case extensionSessionWithoutSharedContainer
  /// The app and one of its extensions used one background session identifier at once: only one
  /// process may connect to a session, so the second one's tasks fail with -996.
  case sessionInUseByAnotherProcess
}

extension LintRule {
  /// What `backgroundSessionWithoutDelegate` says, the same for the engine's apps and the bridge's.
  public static func sessionWithoutDelegateMessage(_ identifier: String) -> String {
    "background session '\(identifier)' was made without a delegate; a background session must have one "
      + "(its completion, progress and handleEvents calls have nowhere else to go): pass the object that "
      + "implements URLSessionDownloadDelegate"
  }
}
