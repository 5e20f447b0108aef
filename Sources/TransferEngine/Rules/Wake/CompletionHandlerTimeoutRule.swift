import SimKernel

/// Rule: a wake's completion-handler timeout fires (behavior.md, "Waking the app and the
/// completion-handler contract", "The app's own time").
///
/// A stale timeout (another wake's, or the app is no longer in the background) does nothing.
/// An app still in a slow callback with no open background-task assertion cannot answer the
/// system: the watchdog kills it (lint `slowCallback`). Otherwise each session whose handler
/// never came back is linted (`completionHandlerNeverCalled`; a session the app never recreated
/// cannot reach `didFinishEvents`, and the end of the wake lints that cause instead) and the app
/// is suspended.
enum CompletionHandlerTimeoutRule {
  /// What the rule reads of the app and the policy.
  struct Facts {
    var now: SimTime
    var appInBackground: Bool
    /// Some background-task assertion is open (it extends the wake).
    var assertionsOpen: Bool
    /// The stretch of app work that keeps its main thread busy now, if any.
    var busy: AppBusyTime.Stretch?
    var completionHandlerTimeout: SimDuration
  }

  /// Appends what the timeout of wake `number` means; `recreated` says whether the app has a
  /// live session object for a background session identifier.
  static func apply(
    wake number: Int, _ facts: Facts, wakes: WakeContract, recreated: (String) -> Bool,
    into effects: inout EffectBuffer
  ) {
    guard let uncalled = wakes.timedOut(wake: number, appInBackground: facts.appInBackground) else { return }
    // Still in a slow callback when the wake's time is up (an open assertion extends it).
    if !facts.assertionsOpen, let stretch = facts.busy {
      let found = stretch.watchdogLint(had: facts.completionHandlerTimeout, now: facts.now)
      effects.append(.lint(.slowCallback, found.message, found.fields))
      effects.append(.terminate(reason: "watchdog"))
      return
    }
    for identifier in uncalled where recreated(identifier) {
      effects.append(
        .lint(
          .completionHandlerNeverCalled,
          "the completion handler for '\(identifier)' was not called within \(facts.completionHandlerTimeout); "
            + "store it in handleEventsForBackgroundURLSession and call it after urlSessionDidFinishEvents",
          [TraceField("session", .string(identifier))]))
    }
    effects.append(.systemSuspend)
  }
}

extension CompletionHandlerTimeoutRule {
  /// Feeds the rule from `engine`: the app's state, its assertions and busy time, the policy, and
  /// whether the app recreated each background session.
  static func apply(wake number: Int, engine: Engine, into effects: inout EffectBuffer) {
    let now = engine.now
    apply(
      wake: number,
      Facts(
        now: now, appInBackground: engine.lifecycle.state == .background,
        assertionsOpen: engine.assertions.hasOpen, busy: engine.appBusy.busy(at: now),
        completionHandlerTimeout: engine.policy.completionHandlerTimeout),
      wakes: engine.wakes, recreated: { engine.daemon.backgroundSession($0)?.appSession != nil },
      into: &effects)
  }
}
