import SimKernel

/// Rule: the app's background time for its assertions runs out (behavior.md, "Background task
/// assertions"; [Q]).
///
/// A stale expiry (another background stretch's, or the app left the background) does nothing.
/// A main thread still in a slow callback cannot run the expiration handlers: the watchdog kills
/// the app. Otherwise each open assertion's expiration handler runs, one at a time (the rule goes
/// on after each, in `afterHandler`, only while the app is still in the background); an assertion
/// still open after them gets the app killed by the watchdog.
enum BackgroundTimeExpiredRule {
  /// The expiry event of `generation` fires.
  static func apply(generation: UInt32, engine: Engine, into effects: inout EffectBuffer) {
    guard engine.lifecycle.state == .background,
      let expiring = engine.assertions.expired(generation: generation)
    else { return }
    if engine.watchdogKillsBusyApp(had: engine.policy.backgroundTaskLimit, into: &effects) { return }
    // Every assertion ended before its time ran out: nothing expires.
    guard !expiring.isEmpty else { return }
    expire(expiring, at: 0, into: &effects)
  }

  /// The app's expiration handler of `expiring[next - 1]` returned.
  static func afterHandler(
    _ expiring: [BackgroundAssertions.Assertion], next: Int, engine: Engine, into effects: inout EffectBuffer
  ) {
    guard engine.lifecycle.state == .background else { return }
    if next < expiring.count {
      expire(expiring, at: next, into: &effects)
      return
    }
    // Both lists are in the order the assertions were begun: the first expiring one still open is
    // the first open one that expired.
    guard let first = expiring.first(where: { engine.assertions.isOpen($0.identifier) }) else { return }
    let limit = engine.policy.backgroundTaskLimit
    effects.append(
      .lint(
        .backgroundTaskNotEnded,
        "background task '\(first.name)' was still open when the app's \(limit) of background time ran out, "
          + "so the watchdog killed the app; call endBackgroundTask in its expiration handler", []))
    effects.append(.terminate(reason: "watchdog"))
  }

  /// Traces the expiry of `expiring[index]`, runs its handler, then comes back.
  private static func expire(
    _ expiring: [BackgroundAssertions.Assertion], at index: Int, into effects: inout EffectBuffer
  ) {
    let assertion = expiring[index]
    effects.append(.trace(.appBackgroundTaskExpired, [TraceField("name", .string(assertion.name))]))
    effects.append(.callApp(.assertionExpiration(identifier: assertion.identifier)))
    effects.append(.afterApp(.backgroundTimeExpired(expiring, next: index + 1)))
  }
}
