import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// Making a session alone: (app state, sessions already made, configuration) -> the session
/// record used and the effects, with no `Simulation`.
@Suite("Rule: make a session")
struct MakeSessionRuleTests {
  /// What each effect is, by name: enough to read the table.
  static func names(_ effects: EffectBuffer) -> [String] {
    effects.effects.map { effect in
      switch effect {
      case .trace(let kind, _): return "trace \(kind)"
      case .lint(let rule, _, _): return "lint \(rule)"
      case .schedule(.deliver, _): return "schedule deliver"
      case .armSessionProgress: return "armSessionProgress"
      default: return "\(effect)"
      }
    }
  }

  static func running() -> Engine {
    let engine = EngineFixture().engine
    _ = engine.lifecycle.userLaunch()
    return engine
  }

  @Test("an app that is not running cannot make a session, and nothing is made")
  func notRunning() {
    let engine = EngineFixture().engine
    var effects = EffectBuffer()
    #expect(throws: SimAPIMisuse.self) {
      try MakeSessionRule.apply(
        .background(withIdentifier: "bg"), delegate: nil, owner: .app, simulation: nil, engine: engine,
        into: &effects)
    }
    #expect(effects.isEmpty)
    #expect(engine.daemon.sessionRecords.isEmpty)
    #expect(throws: SimAPIMisuse.self) {
      try MakeSessionRule.apply(
        .background(withIdentifier: "bg"), delegate: nil, owner: .appExtension("share"), simulation: nil,
        engine: engine, into: &effects)
    }
  }

  /// (configuration) -> effects of the first session made with it.
  @Test(
    "a session is traced, its pending events and progress armed; a background one without delegate is linted",
    arguments: [true, false])
  func made(_ background: Bool) throws {
    let engine = Self.running()
    var effects = EffectBuffer()
    let configuration: SessionConfiguration = background ? .background(withIdentifier: "bg") : .default()
    let session = try MakeSessionRule.apply(
      configuration, delegate: nil, owner: .app, simulation: nil, engine: engine, into: &effects)
    #expect(session.record.attached === session)
    let made = ["trace sessionCreated", "schedule deliver", "armSessionProgress"]
    #expect(Self.names(effects) == (background ? ["lint backgroundSessionWithoutDelegate"] : []) + made)
    #expect(effects.effects.contains(.armSessionProgress(sessionIndex: session.record.index)))
  }

  @Test("a second background session object with a live one's identifier takes its record over, linted")
  func duplicate() throws {
    let engine = Self.running()
    var effects = EffectBuffer()
    let first = try MakeSessionRule.apply(
      .background(withIdentifier: "bg"), delegate: nil, owner: .app, simulation: nil, engine: engine,
      into: &effects)
    effects.removeAll()
    let second = try MakeSessionRule.apply(
      .background(withIdentifier: "bg"), delegate: nil, owner: .app, simulation: nil, engine: engine,
      into: &effects)
    #expect(second.record === first.record)
    #expect(first.record.attached === second)
    #expect(
      Self.names(effects) == [
        "lint duplicateSessionIdentifier", "lint backgroundSessionWithoutDelegate", "trace sessionCreated",
        "schedule deliver", "armSessionProgress",
      ])
  }
}
