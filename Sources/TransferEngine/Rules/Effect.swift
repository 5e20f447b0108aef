import SimKernel

/// A consequence a rule asks for, as data: the rule decides, `Simulation` carries it out.
///
/// A rule (one input's logic, in `Rules/`) reads and changes components, then appends effects
/// to an `EffectBuffer`; `Simulation.interpret(_:)` performs them in the order appended, which
/// is the order the trace records them. Because consequences are values, a rule is tested as
/// a table of (state, input) -> effects without a simulation.
///
/// The `.interrupt`, `.requeueAhead`, `.rescheduleLinks`, `.reevaluateWaiting`, `.terminate`,
/// `.systemSuspend`, `.requestWakeCheck`, `.sessionWoken`, `.disconnectBackgroundDataTasks`,
/// `.endWake`, `.pauseDefaultTransfers`, `.startWaiting`, `.enqueue`, `.cancel`, `.respond`,
/// `.recordResponse`, `.finish` and `.fail` cases hand work to rules that still live in
/// `Simulation+*.swift`; each goes away when its rule gets a room of its own
/// (docs/architecture.md lists them).
enum Effect: Equatable {
  /// Record a trace event now (the invariant checker observes it as it is recorded).
  case trace(TraceKind, [TraceField])
  /// The transfer `uid` lost its connection (`reason` as traced by `task.interrupted`); with
  /// `retryNow` a background task skips the backoff to retry on the new interface.
  case interrupt(uid: Int32, reason: String, retryNow: Bool)
  /// Put the task `uid`, which an interface change made retry at once, back in its wait queue
  /// ahead of the tasks that were not running.
  case requeueAhead(uid: Int32)
  /// Re-arm the links' completion events after their rates or flows changed.
  case rescheduleLinks
  /// Ask admission again about every waiting task.
  case reevaluateWaiting
  /// Schedule `event` at `at` (events at one instant fire in the order scheduled).
  case schedule(EngineEvent, at: SimTime)
  /// Call the app: the interpreter is the only code that does.
  case callApp(AppCall)
  /// Record lint `rule` with `message` and the extra fields.
  case lint(LintRule, String, [TraceField])
  /// Tell the invariant checker what happened (only while invariants are checked).
  case observe(Observation)
  /// The system ends the app's process (`reason` as traced by `app.terminate`).
  case terminate(reason: String)
  /// The system suspends a background app, if nothing holds it.
  case systemSuspend
  /// Ask whether the app is owed a wake (a wake check is scheduled unless one is pending).
  case requestWakeCheck
  /// A wake began for the session record `sessionIndex`: it is no longer owed one, and each
  /// challenge it holds has had its wake.
  case sessionWoken(sessionIndex: Int)
  /// The app was suspended: a background session's data tasks fail with -997.
  case disconnectBackgroundDataTasks
  /// The wake in progress, if any, is over (its lints: `Rules/Wake/EndWakeRule.swift`).
  case endWake
  /// The app was suspended: default sessions' transfers pause.
  case pauseDefaultTransfers
  /// Offer the free connections of wait queue `key` to its waiting tasks (an admission pass).
  case startWaiting(key: String)
  /// Put the task `uid` in its wait queue and try to start it.
  case enqueue(uid: Int32)
  /// Cancel the task `uid` as its `cancel()` would (-999, no resume data).
  case cancel(uid: Int32)
  /// Schedule the answer timer of the challenge the task `uid` just raised in attempt
  /// `generation`, and hand its handle to the task's `ChallengeState`.
  case armChallengeTimeout(uid: Int32, generation: UInt32, at: SimTime)
  /// Cancel a pending engine event.
  case cancelEvent(EventHandle)
  /// Record the response `status` of the task `uid` and put its body on a link.
  case respond(uid: Int32, status: Int)
  /// Record the response `status` of the task `uid` (its headers from the server model).
  case recordResponse(uid: Int32, status: Int)
  /// The task `uid` finished: its response is complete.
  case finish(uid: Int32)
  /// Take the task `uid` off its link or queue and fail it with `code`, with resume data when it
  /// can resume.
  case fail(uid: Int32, code: SimURLError.Code)
}

/// Something the invariant checker is told as it happens, as an effect.
enum Observation: Equatable {
  /// The `calls`-th call of the completion handler of `session` for wake `wake`.
  case completionHandlerCalled(session: String, wake: Int, calls: Int)
}

/// A call into the app's code, as an effect.
enum AppCall: Equatable {
  /// A new process: the installed factory makes the app, then `didFinishLaunching(reason:)`.
  case launch(LaunchReason)
  /// The app timers that came due while the process was suspended (it runs again).
  case runLateTimers
  /// `handleEventsForBackgroundURLSession` for `session`, with a completion handler of wake
  /// number `wake`.
  case handleEvents(session: String, wake: Int)
}

/// The effects one input produced, in order; kept by `Simulation` and reused, so an input
/// allocates nothing for its list once the buffer has grown.
struct EffectBuffer {
  private(set) var effects: [Effect] = []

  mutating func append(_ effect: Effect) { effects.append(effect) }

  var isEmpty: Bool { effects.isEmpty }

  /// Empties the buffer, keeping its storage for the next input.
  mutating func removeAll() { effects.removeAll(keepingCapacity: true) }
}
