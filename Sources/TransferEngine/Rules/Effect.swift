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
/// `.endWake` and `.pauseDefaultTransfers` cases hand work to rules that still live in
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
  /// The wake in progress, if any, is over (its lints).
  case endWake
  /// The app was suspended: default sessions' transfers pause.
  case pauseDefaultTransfers
  /// The app's process is gone (its lifecycle already ended it): session objects die, default
  /// sessions' tasks vanish, background data tasks fail.
  case processEnded
  /// A restart ended the extension `name`'s process (traced `extension.terminate`, `reboot`).
  /// (One string, not two: the largest case sets every effect's size.)
  case extensionEndedByRestart(name: String)
  /// The task `uid` is gone without a word to the app (`reason` as traced by `task.lost`).
  case vanish(uid: Int32, reason: String)
  /// A restart ended the processes: cut the transfers next (`RebootRule.cutTransfers`), the
  /// first unlock of restart `restart` due at `unlockAt`.
  case restartCutsTransfers(restart: UInt32, unlockAt: SimTime)
  /// Cancel the scheduled event `handle` (a timer that no longer applies).
  case cancel(EventHandle)
  /// Stall the transfer `uid` (`Engine.stall`), carried out before the next effect so the
  /// next task sees the links it leaves.
  case stall(uid: Int32)
  /// The transfer `uid` flows again (`Engine.unstall`), carried out before the next effect.
  case unstall(uid: Int32)
  /// Arm the request idle timer of task `uid`'s attempt `generation`, `after` from now.
  case armRequestTimeout(uid: Int32, generation: UInt32, after: SimDuration)
  /// Time the next progress report of the transfer `uid` at the links' current share.
  case armProgress(uid: Int32)
  /// Run the admission pass of the wait queue `key` (`AdmissionPassRule.apply`), carried out
  /// before the next effect.
  case admissionPass(key: String, full: Bool)
  /// After an enqueue's pass: trace why task `uid` still waits in queue `key`, if it does
  /// (`AdmissionPassRule.explainWait`).
  case explainWait(uid: Int32, key: String)
  /// Make sure waits are re-decided at `at` (a start date or the rate limiter's expiry): one
  /// timer, armed for the earliest such instant.
  case requestReevaluation(at: SimTime)
  /// A default session's task waits for connectivity: tell its delegate.
  case notifyWaitingForConnectivity(uid: Int32)
  /// Ask the app's delayed-request handler about task `uid`.
  case askDelayedRequest(uid: Int32)
  /// Admission let task `uid` through: start (or retry) it.
  case beginAttempt(uid: Int32)
  /// Task `uid`'s first start fails with -1009 (`notConnectedToInternet`, with `reason`); it
  /// holds no connection. (Not a whole `SimURLError`: its size would make every effect larger.)
  case failNotConnected(uid: Int32, reason: SimURLError.NetworkUnavailableReason?)
  /// The engine's own state broke `invariant` (a bug in the engine, never the app's).
  case inconsistency(Invariant, String)
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
