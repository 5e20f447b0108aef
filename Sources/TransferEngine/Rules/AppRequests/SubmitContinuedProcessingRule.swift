import SimKernel

/// Rule: the app submits a `BGContinuedProcessingTaskRequest` (behavior.md, "Continued
/// processing").
///
/// A process that is not running gets `unavailable` without a trace. Otherwise the submission is
/// traced; it is refused outside the foreground (`notPermitted`), for an identifier already
/// submitted (`tooManyPendingTaskRequests`), and with the `fail` strategy when no room is left
/// (`immediateRunIneligible`). A request with no room queues; one with room starts at once (its
/// launch handler runs).
enum SubmitContinuedProcessingRule {
  static func apply(
    _ entry: ContinuedProcessingTasks.Entry, strategy: ContinuedProcessingStrategy, engine: Engine,
    into effects: inout EffectBuffer
  ) -> ContinuedProcessingSubmission {
    guard engine.lifecycle.state.isRunning else { return .failed(.unavailable) }
    let identifier = entry.identifier
    effects.append(
      .trace(
        .continuedSubmit,
        [
          TraceField("identifier", .string(identifier)), TraceField("title", .string(entry.title)),
          TraceField("strategy", .string(strategy.rawValue)),
        ]))
    let full = engine.continued.running.count >= engine.policy.continuedProcessing.maxRunning
    let refusal: ContinuedProcessingError?
    if engine.lifecycle.state != .foreground {
      refusal = .notPermitted
    } else if engine.continued.contains(identifier) {
      refusal = .tooManyPendingTaskRequests
    } else if full && strategy == .fail {
      refusal = .immediateRunIneligible
    } else {
      refusal = nil
    }
    if let refusal {
      effects.append(
        .trace(
          .continuedRefused,
          [
            TraceField("identifier", .string(identifier)), TraceField("error", .string(refusal.rawValue)),
            TraceField("code", .int(Int64(refusal.code))),
          ]))
      return .failed(refusal)
    }
    if full {
      engine.continued.addQueued(entry)
      effects.append(
        .trace(
          .continuedQueued,
          [
            TraceField("identifier", .string(identifier)),
            TraceField("position", .int(Int64(engine.continued.queuedCount))),
          ]))
      return .queued
    }
    engine.startContinued(entry, into: &effects)
    return .running
  }
}
