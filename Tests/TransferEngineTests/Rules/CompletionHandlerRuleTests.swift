import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// The completion-handler rules alone (a handler called, a wake's timeout), and the rate
/// limiter's idle reset: (wake contract, app, input) -> effects, with no `Simulation`.
@Suite("Rules: completion handlers and the rate limiter's idle reset")
struct CompletionHandlerRuleTests {
  static let now = SimTime(.seconds(40))

  /// Wake 1 for sessions a and b; `delivered` have had their events delivered, `called` their
  /// handler called.
  static func wake(delivered: [String] = [], called: [String] = []) -> WakeContract {
    var wakes = WakeContract()
    _ = wakes.begin(sessions: ["a", "b"])
    for session in delivered { _ = wakes.eventsDelivered(session) }
    for session in called { _ = wakes.handlerCalled(session: session, wake: 1, appInBackground: true) }
    return wakes
  }

  static func calledTrace(_ session: String, calls: Int = 1, wake: Int = 1) -> [Effect] {
    [
      .trace(.appCompletionHandlerCalled, [TraceField("session", .string(session))]),
      .observe(.completionHandlerCalled(session: session, wake: wake, calls: calls)),
    ]
  }

  static let suspend = Effect.schedule(.suspendApp(lifecycleGeneration: 7), at: now)
  static let early = Effect.lint(
    .completionHandlerCalledEarly,
    "the completion handler for 'a' was called before its events were delivered; "
      + "call it from urlSessionDidFinishEvents(forBackgroundURLSession:)",
    [TraceField("session", .string("a"))])

  /// (name, the wake before, the call's wake, in background, effects after the trace).
  static let calledTable: [(String, WakeContract, Int, Bool, [Effect])] = [
    ("the last of the wake's handlers", wake(delivered: ["a", "b"], called: ["b"]), 1, true, [suspend]),
    ("one of two", wake(delivered: ["a", "b"]), 1, true, []),
    ("before its events were delivered", wake(delivered: ["b"]), 1, true, [early, suspend]),
    ("another wake's handler", wake(delivered: ["a", "b"], called: ["b"]), 2, true, []),
    ("while the app is in the foreground", wake(delivered: ["a", "b"], called: ["b"]), 1, false, []),
  ]

  @Test(
    "a completion handler's call is traced, observed, and suspends the app when the wake is over",
    arguments: calledTable)
  func called(_ name: String, _ before: WakeContract, _ wake: Int, _ background: Bool, _ after: [Effect]) {
    var wakes = before
    var effects = EffectBuffer()
    CompletionHandlerCalledRule.apply(
      .init(session: "a", wake: wake, calls: 1), now: Self.now, appInBackground: background,
      suspendGeneration: 7,
      wakes: &wakes, into: &effects)
    #expect(effects.effects == Self.calledTrace("a", wake: wake) + after, "\(name)")
  }

  @Test("a second call of one handler is observed with its count")
  func calledTwice() {
    var wakes = Self.wake(delivered: ["a", "b"], called: ["a", "b"])
    var effects = EffectBuffer()
    CompletionHandlerCalledRule.apply(
      .init(session: "a", wake: 1, calls: 2), now: Self.now, appInBackground: true, suspendGeneration: 7,
      wakes: &wakes, into: &effects)
    #expect(effects.effects == Self.calledTrace("a", calls: 2) + [Self.suspend])
  }

  static func neverCalled(_ session: String) -> Effect {
    .lint(
      .completionHandlerNeverCalled,
      "the completion handler for '\(session)' was not called within 30s; "
        + "store it in handleEventsForBackgroundURLSession and call it after urlSessionDidFinishEvents",
      [TraceField("session", .string(session))])
  }

  static let busy = AppBusyTime.Stretch(
    callback: .init(name: "didFinishDownloadingTo", task: "f"), began: SimTime(.seconds(20)),
    took: .seconds(50),
    until: SimTime(.seconds(70)))

  /// (name, wake before, timer's wake, in background, assertions open, busy, sessions recreated, effects).
  static let timeoutTable:
    [(String, WakeContract, Int, Bool, Bool, AppBusyTime.Stretch?, Set<String>, [Effect])] = [
      (
        "both handlers uncalled", wake(), 1, true, false, nil, ["a", "b"],
        [neverCalled("a"), neverCalled("b"), .systemSuspend]
      ),
      (
        "one called", wake(called: ["a"]), 1, true, false, nil, ["a", "b"],
        [neverCalled("b"), .systemSuspend]
      ),
      (
        "a session never recreated is not linted here", wake(), 1, true, false, nil, ["b"],
        [neverCalled("b"), .systemSuspend]
      ),
      ("a stale timer", wake(), 2, true, false, nil, ["a", "b"], []),
      ("the app came to the foreground", wake(), 1, false, false, nil, ["a", "b"], []),
      (
        "an open assertion holds a busy app", wake(called: ["a", "b"]), 1, true, true, busy, ["a", "b"],
        [.systemSuspend]
      ),
      (
        "a busy app is killed by the watchdog", wake(), 1, true, false, busy, ["a", "b"],
        [
          .lint(
            .slowCallback, busy.watchdogLint(had: .seconds(30), now: now).message,
            [TraceField("task", .string("f"))]),
          .terminate(reason: "watchdog"),
        ]
      ),
    ]

  @Test("a wake's completion-handler timeout", arguments: timeoutTable)
  func timeout(
    _ name: String, _ wakes: WakeContract, _ wake: Int, _ background: Bool, _ assertionsOpen: Bool,
    _ busy: AppBusyTime.Stretch?, _ recreated: Set<String>, _ expected: [Effect]
  ) {
    var effects = EffectBuffer()
    CompletionHandlerTimeoutRule.apply(
      wake: wake,
      .init(
        now: Self.now, appInBackground: background, assertionsOpen: assertionsOpen, busy: busy,
        completionHandlerTimeout: .seconds(30)),
      wakes: wakes, recreated: { recreated.contains($0) }, into: &effects)
    #expect(effects.effects == expected, "\(name)")
  }

  @Test("the watchdog's lint names the callback, its task, and the time the wake gave")
  func watchdogMessage() {
    let lint = Self.busy.watchdogLint(had: .seconds(30), now: Self.now)
    #expect(lint.message.hasPrefix("didFinishDownloadingTo for 'f' takes 50s of the app's own time"))
    #expect(lint.message.contains("gives the app 30s of background time (20s were left"))
    #expect(
      AppBusyTime.Stretch(callback: .init(name: "x"), began: .zero, took: .zero, until: .zero)
        .watchdogLint(had: .zero, now: .zero).fields.isEmpty)
  }

  @Test(
    "the rate limiter's idle timer resets the delay and re-decides waiting tasks; a stale one does nothing")
  func idleReset() {
    var limiter = RateLimiter(policy: RateLimiterPolicy())
    _ = limiter.wake(at: .zero)
    let armed = limiter.generation
    var effects = EffectBuffer()
    RateLimiterIdleRule.apply(generation: armed &- 1, now: Self.now, to: &limiter, into: &effects)
    #expect(effects.isEmpty)
    #expect(limiter.delay == .seconds(60))
    RateLimiterIdleRule.apply(generation: armed, now: Self.now, to: &limiter, into: &effects)
    #expect(
      effects.effects == [
        .trace(.rateLimiterReset, [TraceField("reason", .string("idle"))]), .reevaluateWaiting,
      ])
    #expect(limiter.delay == .zero)
    #expect(limiter.expiry == Self.now)
    // The reset bumped the generation: the same timer again is stale.
    effects.removeAll()
    RateLimiterIdleRule.apply(generation: armed, now: Self.now, to: &limiter, into: &effects)
    #expect(effects.isEmpty)
  }
}
