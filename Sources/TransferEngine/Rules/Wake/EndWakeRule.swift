import SimKernel

/// Rule: the wake in progress ends because the app stopped running (suspended, terminated)
/// (behavior.md, "Waking the app and the completion-handler contract", "Lints").
///
/// Each session the app was woken for but did not recreate, whose events are still queued, is
/// linted (`sessionNotRecreated`); an app that started a single task at each of several
/// consecutive wakes is linted once (`oneTaskPerWake`). With no wake in progress nothing follows.
enum EndWakeRule {
  /// Ends the wake in `wakes` and appends its lints; `leftEvents` says whether a background
  /// session identifier has no app session object and still holds queued events.
  static func apply(
    wakes: inout WakeContract, leftEvents: (String) -> Bool, into effects: inout EffectBuffer
  ) {
    guard let ending = wakes.end() else { return }
    for identifier in ending.sessions where leftEvents(identifier) {
      effects.append(
        .lint(
          .sessionNotRecreated,
          "the app was woken for session '\(identifier)' but did not recreate it, so its events stay queued; "
            + "create the session with the same identifier at launch or in handleEventsForBackgroundURLSession",
          [TraceField("session", .string(identifier))]))
    }
    if let streak = ending.oneTaskPerWakeStreak {
      effects.append(
        .lint(
          .oneTaskPerWake,
          "the app started a single task at each of \(streak) consecutive wakes, so the rate limiter "
            + "delay doubles each time; start many tasks at once in one session instead", []))
    }
  }

  /// Feeds the rule from `engine`: the wake contract and the daemon's background sessions.
  static func apply(engine: Engine, into effects: inout EffectBuffer) {
    apply(
      wakes: &engine.wakes,
      leftEvents: { identifier in
        guard let record = engine.daemon.backgroundSession(identifier) else { return false }
        return record.appSession == nil && !record.pending.isEmpty
      }, into: &effects)
  }
}
