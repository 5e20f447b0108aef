import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// The condition-change rule alone: (stream's pending change) -> (time, effects), with no
/// `Simulation`. Each change must act exactly as the rule it stands for, at the change's time.
@Suite("Rule: a condition stream's change comes due")
struct ConditionChangeRuleTests {
  /// An engine with one stream that yields `changes` in order, then nothing.
  static func engine(_ changes: [(SimTime, ConditionStream.Change)], running: Bool = false) -> Engine {
    let engine = EngineFixture().engine
    var left = changes[...]
    engine.conditions.add(ConditionStream { left.popFirst().map { (at: $0.0, change: $0.1) } })
    if running { _ = engine.lifecycle.userLaunch() }
    return engine
  }

  static let cellular = NetworkState(interface: .cellular)
  static let lowPower = PowerState(charging: false, battery: 0.1, lowPowerMode: true)

  @Test("a network change moves time to it and acts as NetworkChangeRule")
  func network() {
    let engine = Self.engine([(SimTime(.seconds(5)), .network(Self.cellular))])
    var effects = EffectBuffer()
    ConditionChangeRule.apply(stream: 0, engine: engine, into: &effects)
    #expect(engine.now == SimTime(.seconds(5)))
    #expect(engine.links.network == Self.cellular)
    let twin = EngineFixture().engine
    twin.scheduler.advance(to: SimTime(.seconds(5)))
    var expected = EffectBuffer()
    NetworkChangeRule.apply(Self.cellular, engine: twin, into: &expected)
    #expect(!expected.isEmpty)
    #expect(effects.effects == expected.effects)
  }

  @Test("a power change acts as PowerChangeRule, and the stream's next change waits its turn")
  func power() {
    let engine = Self.engine([
      (SimTime(.seconds(3)), .power(Self.lowPower)), (SimTime(.minutes(1)), .network(Self.cellular)),
    ])
    var effects = EffectBuffer()
    ConditionChangeRule.apply(stream: 0, engine: engine, into: &effects)
    #expect(engine.now == SimTime(.seconds(3)))
    #expect(engine.links.power == Self.lowPower)
    var links = Links(server: ServerModel())
    var expected = EffectBuffer()
    PowerChangeRule.apply(Self.lowPower, to: &links, into: &expected)
    #expect(effects.effects == expected.effects)
    #expect(engine.conditions.peek(0)?.at == SimTime(.minutes(1)))
  }

  @Test("a termination ends the running app as the system's termination does")
  func terminate() {
    let engine = Self.engine([(SimTime(.seconds(8)), .terminate)], running: true)
    var effects = EffectBuffer()
    ConditionChangeRule.apply(stream: 0, engine: engine, into: &effects)
    #expect(engine.now == SimTime(.seconds(8)))
    #expect(effects.effects.first == .trace(.appTerminate, [TraceField("reason", .string("system"))]))
    #expect(engine.lifecycle.state == .notRunning)
  }

  @Test("a stream with nothing left changes nothing")
  func exhausted() {
    let engine = Self.engine([])
    var effects = EffectBuffer()
    ConditionChangeRule.apply(stream: 0, engine: engine, into: &effects)
    #expect(effects.isEmpty)
    #expect(engine.now == .zero)
  }
}
