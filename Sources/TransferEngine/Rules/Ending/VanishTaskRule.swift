import SimKernel

/// Rule: a default session's task dies with its process (behavior.md, "App lifecycle"): the app
/// was terminated or the device restarted. Nothing is delivered and nobody is told: the task
/// leaves its link or queue, `task.lost` is traced with `reason`, it ends, and the connection it
/// held is closed without starting another task (the whole session goes with the process). A
/// task that ended already is left alone.
enum VanishTaskRule {
  static func apply(
    _ task: SimURLSessionTask, reason: String, engine: Engine, into effects: inout EffectBuffer
  ) {
    guard !task.isFinished else { return }
    let withdrawal = engine.withdraw(task)
    effects.append(
      .trace(.taskLost, [TraceField("task", .string(task.name)), TraceField("reason", .string(reason))]))
    engine.endTask(task, .lost, into: &effects)
    task.session.taskEnded()
    if withdrawal == .holdsConnection {
      AdmissionPassRule.releaseConnection(of: task, admitting: false, engine: engine, into: &effects)
    }
  }
}
