/// Rule: the user stops a continued-processing task from the system's progress UI (behavior.md,
/// "Continued processing"): a queued request is removed; a running task expires (its expiration
/// handler runs) and ends `cancelledByUser`.
enum CancelContinuedProcessingRule {
  static func apply(_ identifier: String, engine: Engine, into effects: inout EffectBuffer) {
    if let entry = engine.continued.removeQueued(identifier) {
      engine.endContinued(entry, .cancelledByUser, into: &effects)
      return
    }
    engine.expireContinued(identifier, reason: "user", ending: .cancelledByUser, into: &effects)
  }
}
