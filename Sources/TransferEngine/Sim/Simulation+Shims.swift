import SimKernel

/// Names other slices' `Simulation` code still calls, each now a room's entry; and `run(_:)`, the
/// helper that lends a rule the effect buffer and interprets it. The shims go once their callers
/// are rooms too.
extension Simulation {
  /// Lets `rule` fill the reused effect buffer, then performs its effects in order; returns what
  /// the rule returns. Effects appended before a rule throws are still performed.
  func run<R, E: Error>(_ rule: (inout EffectBuffer) throws(E) -> R) throws(E) -> R {
    var effects = takeEffectBuffer()
    let result: R
    do {
      result = try rule(&effects)
    } catch {
      interpret(consume effects)
      throw error
    }
    interpret(consume effects)
    return result
  }

  /// The extension `name`'s process ended (`Rules/System/ExtensionEndRule.swift`).
  func extensionEnded(_ name: String, reason: String) {
    run { ExtensionEndRule.ended(name, reason: reason, engine: engine, into: &$0) }
  }
}
