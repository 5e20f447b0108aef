import SimKernel

/// Rule: the app sets a running continued-processing task's `progress` (behavior.md, "Continued
/// processing"). Traced for a running task; only a rising `completed` restarts its stall window
/// (`ContinuedProcessingTasks.report`). A task that is not running is ignored.
enum ReportContinuedProgressRule {
  static func apply(
    _ identifier: String, completed: Int64, total: Int64, engine: Engine, into effects: inout EffectBuffer
  ) {
    guard engine.continued.report(identifier, completed: completed, total: total, now: engine.now) != nil
    else {
      return
    }
    effects.append(
      .trace(
        .continuedProgress,
        [
          TraceField("identifier", .string(identifier)), TraceField("completed", .int(completed)),
          TraceField("total", .int(total)),
        ]))
  }
}
