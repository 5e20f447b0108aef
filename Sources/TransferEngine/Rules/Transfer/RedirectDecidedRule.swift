import SimKernel

/// Rule: the app answered `willPerformHTTPRedirection` for the attempt `generation`
/// (behavior.md, "Redirects"): follow the redirect, or take the 3xx response as the answer. An
/// answer for an attempt that has ended since (the task was cancelled, or its connection cut)
/// changes nothing.
enum RedirectDecidedRule {
  static func apply(
    _ task: SimURLSessionTask, to target: SimURL, follow: Bool, generation: UInt32, engine: Engine,
    into effects: inout EffectBuffer
  ) {
    guard task.machine.generation == generation, !task.isFinished, task.machine.isActive else { return }
    if follow {
      ConnectedRule.followRedirect(task, to: target, engine: engine, into: &effects)
    } else {
      engine.respond(
        task, status: engine.links.server.status(for: task.currentURL, at: engine.now), into: &effects)
    }
  }
}
