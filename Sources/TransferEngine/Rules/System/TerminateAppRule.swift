import SimKernel

/// Rule: the system ends the app's process (behavior.md, "App lifecycle"): `system` (memory
/// pressure) or `watchdog` (an expired background task not ended, a slow callback at the end of
/// a wake's time). Background transfers go on [A]; the app may be owed a wake at once. An app
/// that is not running is left alone.
enum TerminateAppRule {
  static func apply(reason: String, engine: Engine, into effects: inout EffectBuffer) {
    guard engine.lifecycle.state != .notRunning else { return }
    _ = engine.lifecycle.terminate(byUser: false)
    effects.append(.trace(.appTerminate, [TraceField("reason", .string(reason))]))
    engine.processEnded(into: &effects)
    effects.append(.requestWakeCheck)
  }
}
