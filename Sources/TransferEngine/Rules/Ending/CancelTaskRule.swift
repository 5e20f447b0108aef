import SimKernel

/// Rule: a task is cancelled (behavior.md, "Tasks"): the app's `cancel()` or
/// `cancel(byProducingResumeData:)`, or the system's (a force quit, Background App Refresh off,
/// `invalidateAndCancel`, an answer that cancels a challenge or a delayed request).
///
/// A task that ended already is left alone. Otherwise it leaves its link or queue, makes resume
/// data when asked for and it can resume, ends with `cancelled` (and the cancel reason, if the
/// system gave one), `task.cancelled` is traced and `didCompleteWithError` queued; the
/// connection it held goes to the next waiting task unless `admitting` is false (the
/// cancellation is one of a batch that ends every task of its session, which would cancel that
/// task a moment later); the links are re-armed and the session's bookkeeping follows.
enum CancelTaskRule {
  /// Returns the resume data made, if any.
  @discardableResult
  static func apply(
    _ task: SimURLSessionTask, produceResumeData: Bool, reason: SimURLError.CancelReason?, admitting: Bool,
    engine: Engine, into effects: inout EffectBuffer
  ) -> ResumeDataContents? {
    guard !task.isFinished else { return nil }
    let withdrawal = engine.withdraw(task)
    let data = produceResumeData ? engine.makeResumeData(task) : nil
    engine.endTask(task, .cancelled, into: &effects)
    let error = SimURLError(.cancelled, resume: data, cancelReason: reason)
    engine.tasks[task].record.cancelled(reason: reason, error: error)
    var fields = Engine.endingFields(task, error)
    if let reason { fields.append(TraceField("reason", .string(reason.name))) }
    if let data { fields.append(TraceField("resumeDataOffset", .int(data.offset))) }
    effects.append(.trace(.taskCancelled, fields))
    engine.queueDelegateEvent(.didComplete(task, error: error), for: task.session, into: &effects)
    if withdrawal == .holdsConnection {
      AdmissionPassRule.releaseConnection(of: task, admitting: admitting, engine: engine, into: &effects)
    }
    effects.append(.rescheduleLinks)
    engine.taskEnded(task, into: &effects)
    return data
  }
}
