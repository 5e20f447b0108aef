import SimKernel
import Testing
import TransferEngine

@testable import ScenarioKit

/// Power that changes at a rate: whole-percent steps at the exact instants the line crosses
/// them, Low Power Mode on at the scenario's level and off at 80% while charging, and clear
/// loader errors.
@Suite struct BatteryCurveTests {
  static func load(power: String) throws(ScenarioErrors) -> Scenario {
    let text = #"{"name": "p", "device": {"power": [\#(power)]}, "timeline": [{"at": "0s", "do": "launch"}]}"#
    return try ScenarioLoader.load(data: Array(text.utf8), file: "s.json")
  }

  static func steps(_ power: String) throws -> [(at: SimTime, state: PowerState)] {
    try load(power: power).device.power.map { ($0.at, $0.value) }
  }

  static func problems(_ power: String) -> [String] {
    do {
      _ = try load(power: power)
      return []
    } catch {
      return error.lines
    }
  }

  @Test func drainingStepsEveryWholePercentAtItsExactInstant() throws {
    let steps = try Self.steps(#"{"at": "0s", "battery": 0.45, "ratePerHour": "-10%"}"#)
    // 45% down to 0%: the step itself, then 45 crossings, one every 6 minutes.
    #expect(steps.count == 46)
    for (k, step) in steps.enumerated() {
      #expect(step.at == SimTime(.minutes(6 * Int64(k))))
      #expect(step.state.battery == Double(45 - k) / 100)
    }
  }

  @Test func aCrossingBetweenWholeNanosecondsIsRoundedUp() throws {
    let steps = try Self.steps(#"{"at": "1h", "battery": 0.615, "ratePerHour": "-7%"}"#)
    // 0.5 percentage points at 7 per hour: 3600e9 * 0.5 / 7 = 257142857142.857... ns.
    #expect(steps[1].at == SimTime(.hours(1)) + .nanoseconds(257_142_857_143))
    #expect(steps[1].state.battery == 0.61)
    #expect(steps[2].at == SimTime(.hours(1)) + .nanoseconds(771_428_571_429))
  }

  @Test func lowPowerModeTurnsOnAtTheScenariosLevelAndOffAt80PercentWhileCharging() throws {
    let steps = try Self.steps(
      #"""
      {"at": "0s", "battery": 0.25, "ratePerHour": "-10%", "lowPowerModeBelow": 0.2},
      {"at": "1h", "charging": true, "ratePerHour": "+50%"}
      """#)
    let on = try #require(steps.first { $0.state.lowPowerMode })
    #expect(on.at == SimTime(.minutes(30)) && on.state.battery == 0.2)
    // At 1h the level is 15%; charging 50%/h reaches 80% 65/50 h = 1h18m later.
    let plugged = try #require(steps.first { $0.at == SimTime(.hours(1)) })
    #expect(plugged.state.battery == 0.15 && plugged.state.lowPowerMode && plugged.state.charging)
    let off = try #require(steps.first { $0.at > SimTime(.hours(1)) && !$0.state.lowPowerMode })
    #expect(off.at == SimTime(.hours(2)) + .minutes(18) && off.state.battery == 0.8)
    #expect(steps.last?.state.battery == 1.0)
    #expect(steps.last?.at == SimTime(.hours(2)) + .minutes(42))
  }

  /// Rising without a charger (or draining on one) never turns Low Power Mode off by itself.
  @Test func lowPowerModeStaysOnWhenTheLevelRisesWithoutCharging() throws {
    let steps = try Self.steps(#"{"at": "0s", "battery": 0.7, "lowPowerMode": true, "ratePerHour": "+10%"}"#)
    #expect(steps.allSatisfy { $0.state.lowPowerMode })
    #expect(steps.contains { $0.state.battery == 0.85 })
  }

  @Test func aRateCarriesForwardUntilAStepChangesItAndStopsAtTheBounds() throws {
    let steps = try Self.steps(
      #"""
      {"at": "0s", "battery": 0.5, "ratePerHour": "-20%"},
      {"at": "45m", "lowPowerMode": true},
      {"at": "1h30m", "ratePerHour": "0%"},
      {"at": "10h", "ratePerHour": "-100%"}
      """#)
    // 45 min at 20%/h: 15 points, so 35% at 45m, and the drain goes on under Low Power Mode.
    let at45 = try #require(steps.first { $0.at == SimTime(.minutes(45)) })
    #expect(at45.state.battery == 0.35 && at45.state.lowPowerMode)
    let at90 = try #require(steps.first { $0.at == SimTime(.minutes(90)) })
    #expect(at90.state.battery == 0.2)
    #expect(!steps.contains { $0.at > SimTime(.minutes(90)) && $0.at < SimTime(.hours(10)) })
    // From 20% at 100%/h: 20 more steps, the last at 0% 12 minutes later, then none.
    let last = try #require(steps.last)
    #expect(last.state.battery == 0 && last.at == SimTime(.hours(10)) + .minutes(12))
    #expect(steps.filter { $0.at > SimTime(.hours(10)) }.count == 20)
  }

  /// The crossing of 49% falls exactly at 1m, where the next step sets the level: the step wins.
  @Test func anExplicitStepAtACrossingWins() throws {
    let steps = try Self.steps(
      #"{"at": "0s", "battery": 0.5, "ratePerHour": "-60%"}, {"at": "1m", "battery": 0.9, "ratePerHour": "0%"}"#
    )
    #expect(steps.map(\.state.battery) == [0.5, 0.9])
  }

  @Test(arguments: [
    (#""-10""#, "s.json: device.power[0].ratePerHour: '-10' is not a battery change per hour like"),
    (#""ten%""#, "s.json: device.power[0].ratePerHour: 'ten%' is not a battery change per hour like"),
    (#""-1.23456%""#, "s.json: device.power[0].ratePerHour: '-1.23456%' is not a battery change per hour"),
    (
      #""-1001%""#, "s.json: device.power[0].ratePerHour: '-1001%' is out of range; expected a battery change"
    ),
    ("-10", "s.json: device.power[0].ratePerHour"),
  ])
  func badRates(_ json: String, _ message: String) {
    let lines = Self.problems(#"{"at": "0s", "ratePerHour": \#(json)}"#)
    #expect(lines.contains { $0.hasPrefix(message) }, "\(lines)")
  }

  @Test func badLowPowerModeLevelIsRefused() {
    let lines = Self.problems(#"{"at": "0s", "lowPowerModeBelow": 1.5}"#)
    #expect(lines.contains { $0.hasPrefix("s.json: device.power[0].lowPowerModeBelow: 1.5 is out of range") })
  }

  @Test func tooManyGeneratedStepsAreRefused() {
    // 1001 entries a day apart, each swinging a full 100 points: over 100000 steps.
    let entries = (0...1000).map { i in
      #"{"at": "\#(i)d", "battery": \#(i % 2 == 0 ? 1 : 0), "ratePerHour": "\#(i % 2 == 0 ? "-" : "+")500%"}"#
    }
    let lines = Self.problems(entries.joined(separator: ","))
    #expect(
      lines.contains { $0.contains("device.power: the battery rates ('ratePerHour') change the level") })
  }

  @Test(arguments: [("+25%", Int64(250_000)), ("-2.5%", -25_000), ("0%", 0), ("1000%", 10_000_000)])
  func rateParsing(_ text: String, _ millionths: Int64) {
    #expect(ValueType<Int64>.parseRate(text) == millionths)
  }
}
