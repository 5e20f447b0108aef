import SimKernel

/// Rule: the app calls `endBackgroundTask(_:)` (behavior.md, "Background task assertions").
///
/// An identifier that is not open does nothing. Ending the last assertion while the system was
/// waiting to suspend the app suspends it now.
enum EndBackgroundTaskRule {
  /// The identifier of the assertion that ended (the caller drops its expiration handler), or
  /// nil when none did.
  static func apply(_ identifier: Int, engine: Engine, into effects: inout EffectBuffer) -> Int? {
    switch engine.assertions.end(identifier) {
    case .unknown: return nil
    case .ended(let assertion):
      effects.append(.trace(.appEndBackgroundTask, [TraceField("name", .string(assertion.name))]))
      return assertion.identifier
    case .endedSuspendNow(let assertion):
      effects.append(.trace(.appEndBackgroundTask, [TraceField("name", .string(assertion.name))]))
      effects.append(.systemSuspend)
      return assertion.identifier
    }
  }
}
