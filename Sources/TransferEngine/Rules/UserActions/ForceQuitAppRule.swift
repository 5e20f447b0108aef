import SimKernel

/// Rule: the user swipes the app away (behavior.md, "App lifecycle"): its process ends, its
/// continued-processing tasks end `cancelledByAppSwitcher`, background tasks are cancelled with
/// reason `userForceQuitApplication`, and no background launch happens until the next user
/// launch [A]. A second force quit does nothing.
enum ForceQuitAppRule {
  static func apply(engine: Engine, into effects: inout EffectBuffer) {
    guard engine.lifecycle.terminate(byUser: true) else { return }
    effects.append(.trace(.appTerminate, [TraceField("reason", .string("forceQuit"))]))
    engine.dropContinuedProcessing(forceQuit: true, into: &effects)
    engine.processEnded(into: &effects)
    engine.cancelBackgroundTasks(reason: .userForceQuitApplication, into: &effects)
  }
}
