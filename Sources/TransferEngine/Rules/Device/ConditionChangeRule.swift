import SimKernel

/// Rule: the pending change of a condition stream (a scenario's `random` section, or a stream a
/// test added) comes due. Time moves to it, and it takes effect as the same change listed in
/// the device's steps would: a network change (`NetworkChangeRule`), a power change
/// (`PowerChangeRule`), or the system ending the app (`TerminateAppRule`). The stream draws its
/// next change as this one is taken.
enum ConditionChangeRule {
  /// Applies the pending change of stream `index`; nothing when the stream has none left.
  static func apply(stream index: Int, engine: Engine, into effects: inout EffectBuffer) {
    guard let next = engine.conditions.take(index) else { return }
    engine.scheduler.advance(to: next.at)
    switch next.change {
    case .network(let state): NetworkChangeRule.apply(state, engine: engine, into: &effects)
    case .power(let state): PowerChangeRule.apply(state, to: &engine.links, into: &effects)
    case .terminate: TerminateAppRule.apply(reason: "system", engine: engine, into: &effects)
    }
  }
}
