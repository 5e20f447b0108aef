import SimKernel

/// Rule: the app calls `beginBackgroundTask(withName:expirationHandler:)` (behavior.md,
/// "Background task assertions").
///
/// Only a running app gets an assertion; it keeps the app running in the background until it
/// ends, for at most the background time left. In the background the expiry is armed now (in
/// the foreground, when the app leaves it).
enum BeginBackgroundTaskRule {
  /// The new assertion's identifier, or nil (`invalid`) when the app is not running. The caller
  /// keeps the expiration handler under the identifier.
  static func apply(name: String, engine: Engine, into effects: inout EffectBuffer) -> Int? {
    guard engine.lifecycle.state.isRunning else { return nil }
    let identifier = engine.assertions.begin(name: name)
    effects.append(.trace(.appBeginBackgroundTask, [TraceField("name", .string(name))]))
    engine.armBackgroundTimeExpiry(into: &effects)
    return identifier
  }
}
