import SimKernel

/// The steps every way of ending a task shares (finish, fail, cancel, lose): taking it off its
/// work, marking it done, the session's bookkeeping after it, and the resume data it leaves.
extension Engine {
  /// What taking a task off its work left it holding (`withdraw`).
  enum Withdrawal: Equatable {
    /// It was connecting or transferring: it still holds its connection, which the caller frees
    /// once the task has ended.
    case holdsConnection
    /// It was waiting (it left its queue) or doing nothing: it holds no connection.
    case holdsNone
  }

  /// Takes an unfinished task off its link or its wait queue.
  func withdraw(_ task: SimURLSessionTask) -> Withdrawal {
    if task.machine.isActive {
      detach(task)
      return .holdsConnection
    }
    if task.machine.isWaiting { daemon.removeFromQueue(task) }
    return .holdsNone
  }

  /// Marks a task done and disarms its timers; the one place a task's life ends. The timers'
  /// handles are the task's own bookkeeping, so they are cancelled on `scheduler` here, not
  /// through effects.
  func endTask(
    _ task: SimURLSessionTask, _ outcome: TaskStateMachine.Outcome, into effects: inout EffectBuffer
  ) {
    if observing { effects.append(.observe(.taskEnded(uid: task.uid))) }
    settleBytes(task)
    switch tasks[task].machine.end(outcome) {
    case .ended: break
    case .endedTwice:
      effects.append(.inconsistency(.taskCompletesOnce, "task '\(task.name)' completed twice"))
    }
    let timers = tasks[task].record.ended()
    if let handle = timers.resource { scheduler.cancel(handle) }
    if let handle = timers.request { scheduler.cancel(handle) }
    if let handle = timers.progress { scheduler.cancel(handle) }
  }

  /// Session bookkeeping once a task has ended and its delegate events are queued: a session
  /// invalidated with `finishTasksAndInvalidate` is invalidated after its last task, and a
  /// background session whose app cannot hear it now owes the app a wake.
  func taskEnded(_ task: SimURLSessionTask, into effects: inout EffectBuffer) {
    let session = task.session
    session.taskEnded()
    if session.outstanding == 0, let live = session.attached, live.awaitsTasksBeforeInvalid {
      queueInvalidation(live, into: &effects)
    }
    if session.isBackground && !(lifecycle.state.isRunning && session.appSession != nil) {
      session.owesWake(true)
    }
    requestWakeCheck(into: &effects)
  }

  /// The fields `task.failed` and `task.cancelled` begin with: the task, its session, the error's
  /// name and code.
  static func endingFields(_ task: SimURLSessionTask, _ error: SimURLError) -> [TraceField] {
    [
      TraceField("task", .string(task.name)), TraceField("session", .string(task.session.identifier)),
      TraceField("error", .string(error.code.name)), TraceField("code", .int(Int64(error.code.rawValue))),
    ]
  }

  /// Resume data for a download that can resume: a GET whose server sent a validator and
  /// accepts byte ranges, with its partial file still there [A]. Nil otherwise.
  /// An upload's resume data follows its own rule (`makeUploadResumeData`).
  func makeResumeData(_ task: SimURLSessionTask) -> ResumeDataContents? {
    if case .upload = task.kind { return makeUploadResumeData(task) }
    guard task.isDownload, task.httpMethod == "GET",
      let validator = task.bytes.fetchingValidator ?? task.resumeFrom?.validator,
      links.server.resource(task.currentURL)?.acceptsRanges == true
    else { return nil }
    return daemon.issueResumeData(
      url: task.currentURL, offset: task.countOfBytesReceived, validator: validator,
      sessionIdentifier: task.session.identifier)
  }
}
