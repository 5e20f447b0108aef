import SimKernel

/// What each input of `TaskStateMachine` asks the engine to carry out: one enum per input, one
/// documented case per consequence (the shape of swift-nio's state machines), so the engine
/// switches on the answer instead of reading the state again to work it out.
extension TaskStateMachine {
  /// What the app's `resume()` did.
  enum ResumeAction: Equatable {
    /// Nothing: the task is done, already running, or still suspended by another `suspend()`.
    case none
    /// The first resume: trace it, arm the resource timer, queue the task in the daemon.
    case start
    /// The last `suspend()` is balanced: trace it, re-arm the resource timer with the time it
    /// had left, queue the task again.
    case `continue`
  }

  /// What the app's `suspend()` did.
  enum SuspendAction: Equatable {
    /// The task is done: nothing.
    case ignore
    /// Only counted (not resumed yet, or suspended already): nothing moves.
    case count
    /// The task stopped: disarm its timers and trace `task.suspend` (the engine took it off its
    /// link or queue before, as `suspendStops` said).
    case stop
  }

  /// What a task leaving a pause does.
  enum RequeueAction: Equatable {
    /// Out of a backoff: put it in its wait queue (its reason, the backoff, is already traced).
    case enqueue
    /// Out of a pause with its app: stop its request idle timer, then put it in its queue.
    case stopIdleTimerAndEnqueue
  }

  /// What admission's "not now" means for the trace.
  enum DeferAction: Equatable {
    /// The reason differs from the one last traced: trace `task.deferred`.
    case traceReason
    /// Same reason as last traced: nothing to trace.
    case alreadyTraced
  }

  /// What a connected task does with its bytes.
  enum ConnectedAction: Equatable {
    /// Join the shared link in direction `up`.
    case joinLink(up: Bool)
  }

  /// What an upload whose body is all sent does next.
  enum UploadBodySentAction: Equatable {
    /// The response body follows: join the down link.
    case joinDownLink
  }

  /// What a stall fault does to the task.
  enum StallAction: Equatable {
    /// Not transferring (or already stalled): nothing.
    case ignore
    /// Take it off the `up` link where it is, trace `task.stalled`, arm its idle timer.
    case leaveLink(up: Bool)
  }

  /// What the end of a stall does to the task.
  enum UnstallAction: Equatable {
    /// Not stalled: nothing.
    case ignore
    /// Stop the idle timer, trace `task.flowing`, put the rest of the body back on the `up` link.
    case rejoinLink(up: Bool)
  }

  /// What losing the attempt's connection takes away.
  enum DetachAction: Equatable {
    /// It was on the `up` link (moving bytes or stalled there): take it off, keep the bytes.
    case takeOffLink(up: Bool)
    /// It was connecting: only its armed events go stale.
    case notOnLink
  }

  /// What an interrupted background transfer waits for.
  enum InterruptedAction: Equatable {
    /// Arm the retry `after` the backoff the retry policy gives this attempt.
    case scheduleRetry(after: SimDuration)
  }

  /// What a retry on a new, allowed interface does.
  enum RetryOnNewInterfaceAction: Equatable {
    /// Keep the claim on the connection (free it without admitting anyone) and queue the task
    /// again ahead of the tasks that were not running.
    case requeueAhead
  }

  /// What the end of a backoff does.
  enum BackoffEndedAction: Equatable {
    /// The task is not backing off (anymore): nothing.
    case ignore
    /// Put the task back in its wait queue.
    case enqueue
  }

  /// What a pause with the app (a default session's transfer) does.
  enum PausedAction: Equatable {
    /// Arm the request idle timer: the transfer fails if the app stays suspended that long.
    case armIdleTimer
  }

  /// What a task's end asks for.
  enum EndAction: Equatable {
    /// The first end: disarm the task's timers.
    case ended
    /// It had ended already: report the broken invariant (then disarm, as for `ended`).
    case endedTwice
  }
}
