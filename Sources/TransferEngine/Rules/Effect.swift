import SimKernel

/// A consequence a rule asks for, as data: the rule decides, `Simulation` carries it out.
///
/// A rule (one input's logic, in `Rules/`) reads and changes components, then appends effects
/// to an `EffectBuffer`; `Simulation.interpret(_:)` performs them in the order appended, which
/// is the order the trace records them. Because consequences are values, a rule is tested as
/// a table of (state, input) -> effects without a simulation.
///
/// Most cases are what only the interpreter can do: record the trace, call the app, tell the
/// checker, schedule. The cases that run another room or engine step (`.interrupt`, `.enqueue`,
/// `.finish`, `.cancelTask`, `.vanish`, `.disconnect`, `.reevaluateWaiting`, `.rescheduleLinks`,
/// `.pauseDefaultTransfers`, ...) exist because that step must come after the effects appended
/// before it are carried out: in a batch of endings, each task's must see the admission pass of
/// the one before it; events at one instant fire in the order scheduled. `.afterApp` brings a
/// rule back once app code it asked for has returned.
enum Effect: Equatable {
  /// Record a trace event now (the invariant checker observes it as it is recorded).
  case trace(TraceKind, [TraceField])
  /// The transfer `uid` lost its connection (`reason` as traced by `task.interrupted`); with
  /// `retryNow` a background task skips the backoff to retry on the new interface.
  case interrupt(uid: Int32, reason: String, retryNow: Bool)
  /// Put the task `uid`, which an interface change made retry at once, back in its wait queue
  /// ahead of the tasks that were not running.
  case requeueAhead(uid: Int32)
  /// Re-arm the links' completion events after their rates or flows changed
  /// (`Engine.rescheduleLinks`), after the effects appended before it: events at one instant
  /// fire in the order scheduled, so the re-armed completion keeps its place behind them.
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
  /// The process holding the session record `sessionIndex` ended: its session object dies (and
  /// with it the `didBecomeInvalidWithError` owed to it).
  case detachFromApp(sessionIndex: Int)
  /// The task `uid` needed the app's or an extension's process, which is gone or suspended: it
  /// leaves its link or queue and fails with -997 (`backgroundSessionWasDisconnected`) [A].
  /// Nothing happens if it ended meanwhile.
  case disconnect(uid: Int32)
  /// Come back to the rule once the app's code an earlier `.callApp` ran has returned: the rule
  /// goes on only from the state the app left.
  case afterApp(AfterApp)
  /// The app's process ended: the app object, its late timers and its closures (expiration
  /// handlers) are dropped.
  case endProcess
  /// The default session's task `uid` dies with its process (`reason` as traced by
  /// `task.lost`): nothing is delivered, nobody is told. Nothing happens if it ended meanwhile.
  case vanish(uid: Int32, reason: String)
  /// Cancel the task `uid` (`reason` in its error; resume data when asked and the download can
  /// resume); `admitting` false when its freed connection must not start another task. Nothing
  /// happens if it ended meanwhile.
  case cancelTask(uid: Int32, produceResumeData: Bool, reason: SimURLError.CancelReason?, admitting: Bool)
  /// The app came to the foreground: default sessions' paused transfers queue again.
  case resumePausedDefaultTransfers
  /// Arm the progress timers of the session record `sessionIndex`'s transfers.
  case armSessionProgress(sessionIndex: Int)
  /// The app's process is gone (its lifecycle already ended it): session objects die, default
  /// sessions' tasks vanish, background data tasks fail.
  case processEnded
  /// A restart ended the extension `name`'s process (traced `extension.terminate`, `reboot`).
  /// (One string, not two: the largest case sets every effect's size.)
  case extensionEndedByRestart(name: String)
  /// A restart ended the processes: cut the transfers next (`RebootRule.cutTransfers`), the
  /// first unlock of restart `restart` due at `unlockAt`.
  case restartCutsTransfers(restart: UInt32, unlockAt: SimTime)
  /// Stall the transfer `uid` (`Engine.stall`), carried out before the next effect so the
  /// next task sees the links it leaves.
  case stall(uid: Int32)
  /// The transfer `uid` flows again (`Engine.unstall`), carried out before the next effect.
  case unstall(uid: Int32)
  /// Arm the request idle timer of task `uid`'s attempt `generation`, `after` from now.
  case armRequestTimeout(uid: Int32, generation: UInt32, after: SimDuration)
  /// Time the next progress report of the transfer `uid` at the links' current share
  /// (`Engine.armProgress`, `Rules/Delivery/Engine+DelegateEvents.swift`).
  case armProgress(uid: Int32)
  /// Run the admission pass of the wait queue `key` (`AdmissionPassRule.apply`), carried out
  /// before the next effect.
  case admissionPass(key: WaitQueue.Key, full: Bool)
  /// Run the full admission pass of each of the first `queues` wait queues whose pass may do
  /// something (`AdmissionPassRule.nextFullPass`, `ParkedQueues`), in key order, each carried out
  /// before the next is chosen (`AdmissionPassRule.reevaluateAll`). One effect, not one per
  /// queue: an app with many sessions has a queue for each, nearly all of them empty or parked.
  case fullAdmissionPasses(queues: Int32)
  /// After an enqueue's pass: trace why task `uid` still waits in queue `key`, if it does
  /// (`AdmissionPassRule.explainWait`).
  case explainWait(uid: Int32, key: WaitQueue.Key)
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
  /// Task `uid` fails with `code` before it holds a connection (its resume data was rejected,
  /// or its session could not connect).
  case failUnstarted(uid: Int32, code: SimURLError.Code)
  /// The engine's own state broke `invariant` (a bug in the engine, never the app's).
  case inconsistency(Invariant, String)
  /// Put the task `uid` in its wait queue and try to start it.
  case enqueue(uid: Int32)
  /// Schedule the answer timer of the challenge the task `uid` just raised in attempt
  /// `generation`, and hand its handle to the task's `ChallengeState`.
  case armChallengeTimeout(uid: Int32, generation: UInt32, at: SimTime)
  /// Cancel a pending engine event.
  case cancelEvent(EventHandle)
  /// The task `uid` finished: its response is complete.
  case finish(uid: Int32)
  /// Arm the resource timer of the task `uid` the app resumed, due `after` from now: its first
  /// `resume()` (`firstResume`, the resume's sequence number) or the one ending a suspension.
  case armResourceTimer(uid: Int32, after: SimDuration, firstResume: Int?)
  /// Fail the task `uid`, which still holds its connection, with `code` and no resume data (a
  /// redirect loop).
  case failHoldingConnection(uid: Int32, code: SimURLError.Code)
  /// The body of the transfer `uid` is all moved: its last progress call at 100%, if the app can
  /// hear it (`Engine.reportBodyDone`, Rules/Delivery/Engine+DelegateEvents.swift).
  case reportBodyDone(uid: Int32)
}

/// Where a rule goes on after the app answered (`Effect.afterApp`).
enum AfterApp: Equatable {
  /// The expiration handler of `expiring[next - 1]` returned
  /// (`BackgroundTimeExpiredRule.afterHandler`).
  case backgroundTimeExpired([BackgroundAssertions.Assertion], next: Int)
  /// The expiration handler of the continued-processing task `identifier` returned
  /// (`Engine.continuedExpirationReturned`).
  case continuedExpired(String, ContinuedProcessingEnd)
  /// The launch handler of a continued-processing task started from the queue returned: the
  /// next may start (`Engine.startNextContinued`).
  case continuedStarted
  /// `willEnterForeground` returned (`LaunchAppRule.enteredForeground`).
  case enteredForeground
  /// Paused default transfers were queued again (`LaunchAppRule.resumedTransfers`).
  case resumedDefaultTransfers
  /// `didEnterBackground` returned with Background App Refresh off
  /// (`BackgroundAppRule.enteredBackground`).
  case enteredBackground
}

/// Something the invariant checker is told as it happens, as an effect.
///
/// A rule appends one only while `Engine.observing` is on, so a run without the checker
/// pays nothing for them.
enum Observation: Equatable {
  /// The `calls`-th call of the completion handler of `session` for wake `wake`.
  case completionHandlerCalled(session: String, wake: Int, calls: Int)
  /// The task `uid` starts (`firstStart`) or retries: the start invariants, on the conditions
  /// of that moment (`Simulation.checkStart`).
  case attemptStarted(uid: Int32, firstStart: Bool)
  /// The task `uid`'s response with `status` is recorded (`Simulation.checkProtectedResponse`).
  case response(uid: Int32, status: Int)
  /// The task `uid` ended (finished, failed, cancelled or lost): it must end once.
  case taskEnded(uid: Int32)
  /// The task `uid` finished: its whole response arrived.
  case taskFinished(uid: Int32)
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
  /// The expiration handler of the background-task assertion `identifier`, if the app gave one.
  case assertionExpiration(identifier: Int)
  /// The launch handler of the running continued-processing task `identifier`.
  case continuedLaunch(identifier: String)
  /// The expiration handler of the running continued-processing task `identifier`, if it has one.
  case continuedExpiration(identifier: String)
  /// `applicationWillEnterForeground`, if the process has an app.
  case willEnterForeground
  /// `applicationDidEnterBackground`, if the process has an app.
  case didEnterBackground
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
