import SimKernel

/// Rule: the user opens the app (behavior.md, "App lifecycle"). The first launch after a restart
/// unlocks the device first (`DeviceUnlockRule`, run by the caller before this rule).
///
/// A new process launches (`didFinishLaunching(reason: user)`); a background or suspended app
/// comes to the foreground: its wake and assertions' time end, late timers run, then
/// `willEnterForeground`; after it, paused default transfers resume and each session with a live
/// object gets a delivery and its progress timers. Either way the rate limiter may reset and
/// every waiting task is decided again. Opening an app already in the foreground does nothing.
enum LaunchAppRule {
  static func apply(engine: Engine, into effects: inout EffectBuffer) {
    switch engine.lifecycle.userLaunch() {
    case .alreadyForeground: return
    case .launched:
      effects.append(.trace(.appLaunch, [TraceField("reason", .string("user"))]))
      engine.resetRateLimiterForForeground(into: &effects)
      effects.append(.callApp(.launch(.user)))
      effects.append(.reevaluateWaiting)
    case .broughtToForeground:
      effects.append(.trace(.appForeground, []))
      engine.wakes.enteredForeground()
      engine.assertions.enteredForeground()
      engine.resetRateLimiterForForeground(into: &effects)
      effects.append(.callApp(.runLateTimers))
      effects.append(.callApp(.willEnterForeground))
      effects.append(.afterApp(.enteredForeground))
    }
  }

  /// `willEnterForeground` returned: default sessions' paused transfers resume (their admission
  /// may tell the app a task waits for connectivity), then `resumedTransfers` goes on.
  static func enteredForeground(into effects: inout EffectBuffer) {
    effects.append(.resumePausedDefaultTransfers)
    effects.append(.afterApp(.resumedDefaultTransfers))
  }

  /// Each session with a live object gets its pending events delivered and its progress timers;
  /// then every waiting task is decided again.
  static func resumedTransfers(engine: Engine, into effects: inout EffectBuffer) {
    for record in engine.daemon.sessionRecords where record.appSession != nil {
      effects.append(.schedule(.deliver(sessionIndex: record.index), at: engine.now))
      effects.append(.armSessionProgress(sessionIndex: record.index))
    }
    effects.append(.reevaluateWaiting)
  }
}
