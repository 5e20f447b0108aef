import SimKernel

/// Rule: the device's power changes (charging, battery, Low Power Mode). Nothing running is
/// cut; the discretionary conditions may now hold or not, so every waiting task is decided again
/// (behavior.md, "Discretionary work" and "Battery level").
enum PowerChangeRule {
  /// Applies `next` to `links` and appends what follows to `effects`.
  static func apply(_ next: PowerState, to links: inout Links, into effects: inout EffectBuffer) {
    links.apply(next)
    effects.append(
      .trace(
        .powerChange,
        [
          TraceField("charging", .bool(next.charging)), TraceField("battery", .double(next.battery)),
          TraceField("lowPowerMode", .bool(next.lowPowerMode)),
        ]))
    effects.append(.reevaluateWaiting)
  }
}
