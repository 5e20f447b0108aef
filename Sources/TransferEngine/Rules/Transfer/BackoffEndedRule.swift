import SimKernel

/// Rule: an interrupted background task's retry backoff passed (behavior.md, "Interruptions and
/// retries"): a task still backing off queues again for admission; a task that left the backoff
/// meanwhile (cancelled, suspended) ignores the timer.
enum BackoffEndedRule {
  static func apply(_ task: SimURLSessionTask, engine: Engine, into effects: inout EffectBuffer) {
    switch engine.tasks[task].machine.backoffEnded() {
    case .ignore: return
    case .enqueue: effects.append(.enqueue(uid: task.uid))
    }
  }
}
