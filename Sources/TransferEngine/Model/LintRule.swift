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
}
