/// Rule: the app calls `setTaskCompleted(success:)` on a continued-processing task (behavior.md,
/// "Continued processing"): it ends (as the system's expiry said, if one is under way) and a
/// queued request may start. A task that is not running is ignored.
enum CompleteContinuedProcessingRule {
  static func apply(_ identifier: String, success: Bool, engine: Engine, into effects: inout EffectBuffer) {
    guard let entry = engine.continued.removeRunning(identifier) else { return }
    engine.endContinued(entry, entry.ending ?? (success ? .succeeded : .failed), into: &effects)
  }
}
