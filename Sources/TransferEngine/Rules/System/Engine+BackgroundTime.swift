import SimKernel

/// The background time the app's assertions may use and the watchdog that ends it, shared by
/// the rooms of the background-task requests, the app's lifecycle and the expiry.
extension Engine {
  /// The app entered the background (the user left it): its assertions' time starts now.
  func startBackgroundTime(into effects: inout EffectBuffer) {
    assertions.enteredBackground(at: now, limit: policy.backgroundTaskLimit)
    armBackgroundTimeExpiry(into: &effects)
  }

  /// Schedules the expiry of the assertions' time, if one is open in the background and none is
  /// armed.
  func armBackgroundTimeExpiry(into effects: inout EffectBuffer) {
    guard lifecycle.state == .background, let (at, generation) = assertions.expiryToArm(now: now) else {
      return
    }
    effects.append(.schedule(.backgroundTimeExpired(generation: generation), at: at))
  }

  /// A wake's time is up: if the app is still in a callback, it cannot answer the system, and
  /// the watchdog kills it [A][S] (a lint, then the termination). True when it does.
  func watchdogKillsBusyApp(had: SimDuration, into effects: inout EffectBuffer) -> Bool {
    guard lifecycle.state == .background, let stretch = appBusy.busy(at: now) else { return false }
    let found = stretch.watchdogLint(had: had, now: now)
    effects.append(.lint(.slowCallback, found.message, found.fields))
    effects.append(.terminate(reason: "watchdog"))
    return true
  }
}
