import SimKernel

/// One task's life in the daemon as a state machine (behavior.md, "When a task may start" and
/// "Interruptions, retries, timeouts").
///
/// Each state carries its data; each input is a `mutating` method that checks the transition is
/// possible and returns what the engine must do about it. An input that cannot happen in the
/// current state is an engine bug: `preconditionFailure("internal inconsistency ...")`.
/// Inputs the engine may deliver late (a timer armed for an earlier attempt) are filtered by
/// `generation` before they reach the machine.
struct TaskStateMachine: Equatable {
  /// How a task ended.
  enum Outcome: Equatable {
    /// The whole response arrived (any HTTP status).
    case finished
    /// A transport error.
    case failed
    case cancelled
    /// A default session's task died with its app.
    case lost
  }

  enum State: Equatable {
    /// Created, `resume()` not called yet.
    case created
    /// Resumed, waiting for admission; `traced` is the reason last traced (`task.deferred`),
    /// so a reason is traced only when it changes.
    case waiting(traced: SimURLSessionTask.WaitReason?)
    /// Admitted: one round trip before bytes flow. Holds a connection.
    case connecting
    /// Bytes flowing on a link (`up` for an upload body, then down for the response).
    case transferring(up: Bool)
    /// Holding its connection but off the link: the server sends nothing (a `stall` fault).
    case stalled(up: Bool, since: SimTime)
    /// Interrupted; a retry is due at `until`.
    case backingOff(until: SimTime)
    /// A default session's transfer, stopped with its suspended app.
    case paused(since: SimTime)
    /// Stopped by the app's `suspend()` after it had been resumed: no traffic, no timeouts,
    /// not in any queue, until the app's `resume()` brings the suspension count back to 0.
    case suspended(since: SimTime)
    case done(Outcome)
  }

  // `state` and `startedAt` first: an admission pass reads both of every waiting task, and
  // together they fit the first cache line of the task's row (`TaskParts`).
  private(set) var state: State = .created
  /// When the first attempt started; nil until then.
  private(set) var startedAt: SimTime?
  /// Connection attempts so far (1 for the first start).
  private(set) var attempts = 0
  /// Bumped when an attempt ends, which turns the events armed for it into no-ops.
  private(set) var generation: UInt32 = 0
  /// `suspend()` calls not yet balanced by `resume()` (nestable, as in Foundation): a new task
  /// starts at 1, so its first `resume()` starts it.
  private(set) var suspendCount = 1
  /// Set while the task waits to take back the connection an interface change cut: it goes
  /// ahead of every task that was not running (`WaitQueue`'s order). Cleared when admitted.
  private(set) var reclaimsSlot = false

  /// Connecting, transferring or stalled: holding a connection.
  var isActive: Bool {
    switch state {
    case .connecting, .transferring, .stalled: return true
    default: return false
    }
  }

  var isWaiting: Bool {
    if case .waiting = state { return true }
    return false
  }

  var isDone: Bool {
    if case .done = state { return true }
    return false
  }

  /// The direction bytes move (or would move, when stalled), or nil when not on a link.
  var direction: (up: Bool, stalled: Bool)? {
    switch state {
    case .transferring(let up): return (up, false)
    case .stalled(let up, _): return (up, true)
    default: return nil
    }
  }

  /// The reason last traced while waiting (nil when not waiting or none traced yet).
  var tracedWaitReason: SimURLSessionTask.WaitReason? {
    if case .waiting(let traced) = state { return traced }
    return nil
  }

  // MARK: Inputs
  //
  // Each input returns an action enum (`TaskStateMachine+Actions.swift`): what the engine must
  // carry out because of the transition, so no caller works it out again from the state.

  /// `resume()`: one `suspend()` undone; the task moves when none is left.
  mutating func resume() -> ResumeAction {
    guard !isDone, suspendCount > 0 else { return .none }
    suspendCount -= 1
    guard suspendCount == 0 else { return .none }
    switch state {
    case .created:
      state = .waiting(traced: nil)
      return .start
    case .suspended:
      state = .waiting(traced: nil)
      return .continue
    default: inconsistent("resume")
    }
  }

  /// True when the app's `suspend()` now would stop the task: it was resumed, is not done and
  /// is not suspended already. The engine takes it off its link or queue first.
  var suspendStops: Bool { suspendCount == 0 && !isDone }

  /// `suspend()`: one more suspension; stops the task when it was running (see `suspendStops`).
  /// Nested calls only count, as in Foundation; a done task ignores it.
  mutating func suspend(at now: SimTime) -> SuspendAction {
    guard !isDone else { return .ignore }
    let stops = suspendStops
    if suspendCount < Int.max { suspendCount += 1 }
    guard stops else { return .count }
    // The attempt in flight (if any) is over: its armed events go stale.
    generation &+= 1
    reclaimsSlot = false
    state = .suspended(since: now)
    return .stop
  }

  /// Back to waiting after a pause: the task re-enters its wait queue.
  mutating func requeue() -> RequeueAction {
    switch state {
    case .backingOff:
      state = .waiting(traced: .retryBackoff)
      return .enqueue
    case .paused:
      state = .waiting(traced: nil)
      return .stopIdleTimerAndEnqueue
    default: inconsistent("requeue")
    }
  }

  /// Admission said no: the reason is traced only when it differs from the one last traced.
  mutating func deferred(_ reason: SimURLSessionTask.WaitReason) -> DeferAction {
    guard case .waiting(let traced) = state else { inconsistent("deferred") }
    guard traced != reason else { return .alreadyTraced }
    state = .waiting(traced: reason)
    return .traceReason
  }

  /// What an admitted task's attempt is, for the trace.
  enum Attempt: Equatable {
    /// The first attempt (`task.started`).
    case start
    /// A later one (`task.retry`), numbered from 2.
    case retry(attempt: Int)
  }

  /// Admission said yes: the task connects.
  mutating func admit(at now: SimTime) -> Attempt {
    guard case .waiting = state else { inconsistent("admit") }
    attempts += 1
    reclaimsSlot = false
    state = .connecting
    if startedAt == nil {
      startedAt = now
      return .start
    }
    return .retry(attempt: attempts)
  }

  /// The response headers arrived (download) or the connection is open (upload): bytes flow.
  mutating func connected(up: Bool) -> ConnectedAction {
    guard state == .connecting else { inconsistent("connected") }
    state = .transferring(up: up)
    return .joinLink(up: up)
  }

  /// An upload's body is all sent and a response body follows.
  mutating func uploadBodySent() -> UploadBodySentAction {
    guard state == .transferring(up: true) else { inconsistent("uploadBodySent") }
    state = .transferring(up: false)
    return .joinDownLink
  }

  /// The server stopped sending; ignored when not transferring (or already stalled).
  mutating func stall(at now: SimTime) -> StallAction {
    guard case .transferring(let up) = state else { return .ignore }
    state = .stalled(up: up, since: now)
    return .leaveLink(up: up)
  }

  /// The server sends again; ignored when not stalled.
  mutating func unstall() -> UnstallAction {
    guard case .stalled(let up, _) = state else { return .ignore }
    state = .transferring(up: up)
    return .rejoinLink(up: up)
  }

  /// The attempt's connection is gone: events armed for it go stale. The state changes with
  /// the input that follows (`interrupted`, `paused`, `end`).
  mutating func detached() -> DetachAction {
    generation &+= 1
    switch state {
    case .transferring(let up), .stalled(let up, _): return .takeOffLink(up: up)
    default: return .notOnLink
    }
  }

  /// The connection broke in a background session: back off before the next attempt, twice as
  /// long at each further attempt, capped by the policy.
  mutating func interrupted(at now: SimTime, retry: RetryPolicy) -> InterruptedAction {
    guard isActive else { inconsistent("interrupted") }
    let exponent = min(attempts - 1, 30)
    var wait = retry.backoff * (Int64(1) << Int64(exponent))
    if wait > retry.maxBackoff { wait = retry.maxBackoff }
    state = .backingOff(until: now + wait)
    return .scheduleRetry(after: wait)
  }

  /// The interface changed and the new one is allowed: not a failure, so no backoff. The task
  /// waits again at once, ahead of the tasks that were not running, to retry on the new interface.
  mutating func retryOnNewInterface() -> RetryOnNewInterfaceAction {
    guard isActive else { inconsistent("retryOnNewInterface") }
    state = .waiting(traced: nil)
    reclaimsSlot = true
    return .requeueAhead
  }

  /// The backoff passed: a task backing off re-enters its queue; any other ignores it.
  mutating func backoffEnded() -> BackoffEndedAction {
    guard case .backingOff = state else { return .ignore }
    _ = requeue()
    return .enqueue
  }

  /// A default session's app was suspended while the task held a connection.
  mutating func paused(at now: SimTime) -> PausedAction {
    guard isActive else { inconsistent("paused") }
    state = .paused(since: now)
    return .armIdleTimer
  }

  /// The task ended. Ending twice is reported as a broken invariant rather than a trap, so
  /// the fuzzer can find it.
  mutating func end(_ outcome: Outcome) -> EndAction {
    let first = !isDone
    state = .done(outcome)
    generation &+= 1
    return first ? .ended : .endedTwice
  }

  private func inconsistent(_ input: String) -> Never {
    preconditionFailure("internal inconsistency: task input \(input) in state \(state)")
  }
}
