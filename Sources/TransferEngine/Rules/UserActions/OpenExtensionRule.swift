import SimKernel

/// Rule: the user opens the app's extension `name` (a share sheet, say): its process starts
/// (behavior.md, "App extensions"). Opening one that runs already only calls off its pending end.
enum OpenExtensionRule {
  static func apply(_ name: String, engine: Engine, into effects: inout EffectBuffer) {
    guard engine.extensions.open(name) else { return }
    effects.append(.trace(.extensionLaunch, [TraceField("name", .string(name))]))
  }
}
