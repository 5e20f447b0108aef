import SimKernel

/// Rule: a task outlived `timeoutIntervalForResource` (behavior.md, "Timeouts"): it is taken off
/// its link or queue and fails with -1001 (`timedOut`), with resume data when it can resume;
/// the links are re-armed. A task that ended already is left alone.
enum ResourceTimeoutRule {
  static func apply(_ task: SimURLSessionTask, engine: Engine, into effects: inout EffectBuffer) {
    guard !task.isFinished else { return }
    engine.tasks[task].record.resourceTimerFired()
    FailTaskRule.withdrawAndFail(task, code: .timedOut, engine: engine, into: &effects)
    effects.append(.rescheduleLinks)
  }
}
