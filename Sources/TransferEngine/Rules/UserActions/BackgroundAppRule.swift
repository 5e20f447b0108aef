import SimKernel

/// Rule: the user leaves the app (behavior.md, "App lifecycle"): it goes to the background, to
/// be suspended `backgroundRunTime` later; its assertions' time starts; `didEnterBackground`
/// runs. With Background App Refresh off, every background task is then cancelled
/// (`backgroundUpdatesDisabled`) [S]. Leaving an app not in the foreground does nothing.
enum BackgroundAppRule {
  static func apply(engine: Engine, into effects: inout EffectBuffer) {
    guard engine.lifecycle.userBackground() else { return }
    effects.append(.trace(.appBackground, []))
    effects.append(
      .schedule(
        .suspendApp(lifecycleGeneration: engine.lifecycle.generation),
        at: engine.now + engine.policy.backgroundRunTime))
    engine.startBackgroundTime(into: &effects)
    effects.append(.callApp(.didEnterBackground))
    if !engine.deviceModel.backgroundAppRefresh { effects.append(.afterApp(.enteredBackground)) }
  }

  /// `didEnterBackground` returned with Background App Refresh off: background work is cancelled,
  /// including tasks the app started in the callback.
  static func enteredBackground(engine: Engine, into effects: inout EffectBuffer) {
    engine.cancelBackgroundTasks(reason: .backgroundUpdatesDisabled, into: &effects)
  }
}
