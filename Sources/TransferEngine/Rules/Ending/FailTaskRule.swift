import SimKernel

/// Rule: a task fails with a transport error (behavior.md, "Tasks", "Timeouts", "Interruptions
/// and retries"): a timeout, a lost connection on a default session, too many redirects, a
/// disconnected background data task, a start the network blocks, rejected resume data.
///
/// The caller has taken the task off its link or queue. It ends, keeps its error, and
/// `task.failed` is traced with the error's code (and resume data offset, or why the network was
/// unavailable, when the error carries one); `didCompleteWithError` is queued for the app. A
/// task that still held a connection (`freeingConnection`) gives it to the next waiting task;
/// then its session's bookkeeping follows (`Engine.taskEnded`).
enum FailTaskRule {
  static func apply(
    _ task: SimURLSessionTask, _ error: SimURLError, freeingConnection: Bool, engine: Engine,
    into effects: inout EffectBuffer
  ) {
    engine.endTask(task, .failed, into: &effects)
    engine.tasks[task].record.failed(error)
    var fields = Engine.endingFields(task, error)
    if let data = error.resumeContents { fields.append(TraceField("resumeDataOffset", .int(data.offset))) }
    if let unavailable = error.networkUnavailableReason {
      fields.append(TraceField("networkUnavailableReason", .string(unavailable.name)))
    }
    effects.append(.trace(.taskFailed, fields))
    engine.queueDelegateEvent(.didComplete(task, error: error), for: task.session, into: &effects)
    if freeingConnection {
      AdmissionPassRule.releaseConnection(of: task, admitting: true, engine: engine, into: &effects)
    }
    engine.taskEnded(task, into: &effects)
  }

  /// Takes the task off its link or queue first, then fails it with `code`, with resume data
  /// when it can resume (a resource or challenge timeout).
  static func withdrawAndFail(
    _ task: SimURLSessionTask, code: SimURLError.Code, engine: Engine, into effects: inout EffectBuffer
  ) {
    let withdrawal = engine.withdraw(task)
    apply(
      task, SimURLError(code, resume: engine.makeResumeData(task)),
      freeingConnection: withdrawal == .holdsConnection, engine: engine, into: &effects)
  }

  /// The task needed the app's or an extension's process, which is gone or suspended: it leaves
  /// its link or queue and fails with -997 (`backgroundSessionWasDisconnected`) [A]. A task that
  /// ended already is left alone.
  static func disconnect(_ task: SimURLSessionTask, engine: Engine, into effects: inout EffectBuffer) {
    guard !task.isFinished else { return }
    let withdrawal = engine.withdraw(task)
    apply(
      task, SimURLError(.backgroundSessionWasDisconnected), freeingConnection: withdrawal == .holdsConnection,
      engine: engine, into: &effects)
  }
}
