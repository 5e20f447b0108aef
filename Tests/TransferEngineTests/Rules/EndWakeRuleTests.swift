import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// The end of a wake alone: (wake contract, sessions left with events) -> (effects, wake
/// contract after), with no `Simulation`; and the wake-check request on a bare `Engine`.
@Suite("Rule: the end of a wake")
struct EndWakeRuleTests {
  static func notRecreated(_ session: String) -> Effect {
    .lint(
      .sessionNotRecreated,
      "the app was woken for session '\(session)' but did not recreate it, so its events stay queued; "
        + "create the session with the same identifier at launch or in handleEventsForBackgroundURLSession",
      [TraceField("session", .string(session))])
  }

  static let oneTaskPerWake = Effect.lint(
    .oneTaskPerWake,
    "the app started a single task at each of 3 consecutive wakes, so the rate limiter "
      + "delay doubles each time; start many tasks at once in one session instead", [])

  /// (name, the wake's sessions or nil for no wake, sessions left with queued events, effects).
  static let table: [(String, [String]?, Set<String>, [Effect])] = [
    ("no wake in progress", nil, ["a"], []),
    ("every session recreated or emptied", ["a", "b"], [], []),
    ("one left with events", ["a", "b"], ["b"], [notRecreated("b")]),
    ("both, in the wake's order", ["b", "a"], ["a", "b"], [notRecreated("b"), notRecreated("a")]),
    ("a session the wake was not for", ["a"], ["c"], []),
  ]

  @Test("sessions the app did not recreate are linted once the wake ends", arguments: table)
  func endsWake(_ name: String, _ sessions: [String]?, _ left: Set<String>, _ expected: [Effect]) {
    var wakes = WakeContract()
    if let sessions { _ = wakes.begin(sessions: sessions) }
    var effects = EffectBuffer()
    EndWakeRule.apply(wakes: &wakes, leftEvents: { left.contains($0) }, into: &effects)
    #expect(effects.effects == expected, "\(name)")
    #expect(wakes.currentWake == nil)
    // Ended once: a second end finds nothing.
    var again = EffectBuffer()
    EndWakeRule.apply(wakes: &wakes, leftEvents: { _ in true }, into: &again)
    #expect(again.isEmpty)
  }

  @Test("a single task at each of three consecutive wakes is linted once")
  func oneTaskStreak() {
    var wakes = WakeContract()
    var all: [[Effect]] = []
    for _ in 1...4 {
      _ = wakes.begin(sessions: ["a"])
      wakes.taskCreated()
      var effects = EffectBuffer()
      EndWakeRule.apply(wakes: &wakes, leftEvents: { _ in false }, into: &effects)
      all.append(effects.effects)
    }
    #expect(all == [[], [], [Self.oneTaskPerWake], []])
  }

  @Test("an engine's wake ends through the engine's own records")
  func fedFromEngine() {
    let engine = Engine(policy: .defaults, device: .wifi, server: .init())
    _ = engine.wakes.begin(sessions: ["nowhere"])
    var effects = EffectBuffer()
    // No daemon record holds "nowhere": nothing is left queued for it.
    EndWakeRule.apply(engine: engine, into: &effects)
    #expect(effects.isEmpty)
    #expect(engine.wakes.currentWake == nil)
  }

  @Test("a wake check is scheduled once until it runs")
  func requestWakeCheck() {
    let engine = Engine(policy: .defaults, device: .wifi, server: .init())
    var effects = EffectBuffer()
    engine.requestWakeCheck(into: &effects)
    engine.requestWakeCheck(into: &effects)
    #expect(effects.effects == [.schedule(.wakeCheck, at: .zero)])
    engine.wakes.checkRan()
    engine.requestWakeCheck(into: &effects)
    #expect(effects.effects.count == 2)
  }
}
