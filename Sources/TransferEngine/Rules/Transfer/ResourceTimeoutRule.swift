import SimKernel

/// Rule: a task outlived `timeoutIntervalForResource` (behavior.md, "Timeouts"): it is taken off
/// its link or queue and fails with -1001 (`timedOut`), with resume data when it can resume;
/// the links are re-armed. A task that ended already is left alone.
enum ResourceTimeoutRule {
  static func apply(_ task: SimURLSessionTask, into effects: inout EffectBuffer) {
    guard !task.isFinished else { return }
    task.record.resourceTimerFired()
    effects.append(.withdrawAndFail(uid: task.uid, code: .timedOut))
    effects.append(.rescheduleLinks)
  }
}
