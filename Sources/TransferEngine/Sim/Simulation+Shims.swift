import SimKernel

/// Entries other slices' code still calls by their old names while it is written as `extension
/// Simulation`; each only runs its room. The lead removes them once the callers are rooms too.
extension Simulation {
  /// Runs `rule` with the reused effect buffer, then carries out what it appended.
  func run(_ rule: (inout EffectBuffer) -> Void) {
    var effects = takeEffectBuffer()
    rule(&effects)
    interpret(effects)
  }

  /// The first unlock after a restart (`Rules/DeviceUnlockRule.swift`), from a launch.
  func unlockDevice() { run { DeviceUnlockRule.apply(to: &engine.links, into: &$0) } }
}
