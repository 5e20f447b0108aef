import SimKernel

/// Rule: the app calls `resume()` on a task (behavior.md, "Tasks").
///
/// The first call arms the resource timer and queues the task; a task made from resume data
/// that could not be used, or in a session that could not connect (-995, -996), fails at once.
/// The call that balances the app's last `suspend()` queues the task again with the resource
/// time it had left. Any other call does nothing. With Background App Refresh off, a background
/// session's task resumed while the app is out of the foreground is cancelled as the ones
/// running then were [S].
enum ResumeTaskRule {
  static func apply(_ task: SimURLSessionTask, engine: Engine, into effects: inout EffectBuffer) {
    switch engine.tasks[task].machine.resume() {
    case .none: return
    case .start:
      let sequence = engine.daemon.nextResumeSequence()
      traceResume(task, into: &effects)
      let timeout = task.session.configuration.timeoutIntervalForResource
      effects.append(.armResourceTimer(uid: task.uid, after: timeout, firstResume: sequence))
      if task.record.rejectedResumeData != nil {
        effects.append(.failUnstarted(uid: task.uid, code: .cannotWriteToFile))
        return
      }
      if let code = task.session.connectionError {
        effects.append(.failUnstarted(uid: task.uid, code: code))
        return
      }
    case .continue:
      traceResume(task, into: &effects)
      let left = task.record.resourceTimeLeft ?? task.session.configuration.timeoutIntervalForResource
      effects.append(.armResourceTimer(uid: task.uid, after: left, firstResume: nil))
    }
    if task.session.isBackground && !engine.deviceModel.backgroundAppRefresh
      && engine.lifecycle.state != .foreground
    {
      effects.append(
        .cancelTask(
          uid: task.uid, produceResumeData: true, reason: .backgroundUpdatesDisabled, admitting: false))
      return
    }
    effects.append(.enqueue(uid: task.uid))
  }

  private static func traceResume(_ task: SimURLSessionTask, into effects: inout EffectBuffer) {
    effects.append(
      .trace(
        .taskResume,
        [TraceField("task", .string(task.name)), TraceField("session", .string(task.session.identifier))]))
  }
}
