/// Everything the simulation schedules: small values, no closures on the hot path.
///
/// Per-task events carry the task's `uid` and the `generation` it had when they were armed;
/// a task bumps its generation when its attempt ends, which turns older events into no-ops.
enum EngineEvent: Equatable {
  case networkStep(Int)
  case powerStep(Int)
  case serverChange(Int)
  case dropFault(Int)
  /// A `stall` fault begins or ends: stall or restart the matching transfers.
  case stallChange(Int)
  /// A waiting task's start date or the rate limiter's expiry has come: re-decide all waits.
  case reevaluate
  /// One round trip after a start: the response headers arrive.
  case connected(uid: Int32, generation: UInt32)
  /// The earliest flow on a link direction finishes.
  case linkCompletion(up: Bool)
  /// A running download may have crossed another tenth of its size.
  case progress(uid: Int32, generation: UInt32)
  /// An interrupted transfer's backoff is over.
  case retry(uid: Int32, generation: UInt32)
  case resourceTimeout(uid: Int32)
  /// A default session's paused transfer has been idle for `timeoutIntervalForRequest`.
  case requestTimeout(uid: Int32, generation: UInt32)
  /// `backgroundRunTime` after the app went to the background.
  case suspendApp(lifecycleGeneration: UInt32)
  /// The wake's completion handlers were not all called in time.
  case completionHandlerTimeout(wake: Int)
  case rateLimiterIdle(generation: UInt32)
  /// Deliver a session's queued delegate events if the app can take them.
  case deliver(sessionIndex: Int)
  /// Wake the app if a background session finished its work while it was away.
  case wakeCheck
  /// The background time of the app's open background-task assertions ran out.
  case backgroundTimeExpired(generation: UInt32)
  /// The app did not answer an authentication challenge of attempt `generation` in time.
  case challengeTimeout(uid: Int32, generation: UInt32)
  /// A continued-processing task's progress window may have passed without progress.
  case continuedStallCheck(generation: UInt32)
  /// The user unlocks the device `reboot.unlockAfter` after restart number `restart`.
  case deviceUnlock(restart: UInt32)
  /// `extensionEndsAfter` after the user left an extension: the system ends run `run` of it.
  case endExtension(run: Int)
  /// Code outside the engine (a scenario's timeline entry, an app's timer).
  case callback(Int)
}
