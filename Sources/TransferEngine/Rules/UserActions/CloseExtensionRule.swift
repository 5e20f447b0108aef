import SimKernel

/// Rule: the user leaves the extension `name`: the system ends its process
/// `Policy.extensionEndsAfter` later (`ExtensionEndRule`), unless the user comes back first.
enum CloseExtensionRule {
  static func apply(_ name: String, engine: Engine, into effects: inout EffectBuffer) {
    guard let run = engine.extensions.close(name) else { return }
    effects.append(.trace(.extensionClose, [TraceField("name", .string(name))]))
    effects.append(.schedule(.endExtension(run: run), at: engine.now + engine.policy.extensionEndsAfter))
  }
}
