import ScenarioKit
import SimKernel
import Testing
import TransferEngine

@Suite struct RandomConditionsTests {
  @Test func decodesEveryForm() throws {
    let random = try #require(try SweepFixtures.load().random)
    #expect(random.network?.onFor == .exponential(mean: .minutes(20)))
    #expect(random.network?.offFor == .uniform(.minutes(1), .minutes(10)))
    #expect(random.network?.off.interface == InterfaceKind.none)
    #expect(random.power?.onFor == .fixed(.hours(3)))
    #expect(random.power?.until == SimTime(.days(1)))
    #expect(
      random.terminations == Recurrence(every: .exponential(mean: .minutes(30)), from: SimTime(.minutes(10))))
  }

  @Test func theSameSeedDrawsTheSameConditions() throws {
    let scenario = try SweepFixtures.load()
    let a = RandomConditions.expand(scenario, seed: 9)
    let b = RandomConditions.expand(scenario, seed: 9)
    let c = RandomConditions.expand(scenario, seed: 10)
    #expect(a.device == b.device)
    #expect(a.timeline.map(\.at) == b.timeline.map(\.at))
    #expect(a.device.network != c.device.network)
    #expect(a.random == nil)
  }

  /// Drawing during the run gives the trace the same draws give when listed up front.
  @Test(arguments: [UInt64(1), 2, 3, 9])
  func lazyDrawsPlayLikeTheExpandedSteps(seed: UInt64) throws {
    let scenario = try SweepFixtures.load()
    let lazy = ScenarioRunner.run(scenario, seed: seed)
    let eager = ScenarioRunner.run(RandomConditions.expand(scenario, seed: seed), seed: seed)
    #expect(lazy.trace.events.count > 50)
    #expect(lazy.trace.jsonLines == eager.trace.jsonLines)
  }

  @Test func drawsAlternateAndStayInsideTheirWindow() throws {
    let scenario = try SweepFixtures.load()
    let expanded = RandomConditions.expand(scenario, seed: 1)
    let network = expanded.device.network
    #expect(network.count > 20)
    for (a, b) in zip(network, network.dropFirst()) {
      #expect(a.at < b.at)
      #expect((a.value.interface == .none) != (b.value.interface == .none))
    }
    #expect(network.last!.at < SimTime(.days(2)))
    let power = expanded.device.power
    #expect(power.first?.value.charging == true)
    #expect(power.last!.at < SimTime(.days(1)))
    #expect(power.dropFirst().first?.at == SimTime(.hours(3)))
    let terminations = expanded.timeline.filter {
      if case .terminate = $0.action { return true } else { return false }
    }
    #expect(terminations.count > 40)
    #expect(
      terminations.allSatisfy { $0.at > SimTime(.minutes(10)) && $0.path.hasPrefix("random.terminations[") })
    // Drawn terminations come after the written entries of the same instant, in time order.
    #expect(expanded.timeline.map(\.at) == expanded.timeline.map(\.at).sorted())
  }

  @Test func aMeanOfExponentialGapsIsNearItsParameter() {
    var g = SeededGenerator(seed: 4)
    let d = DurationDistribution.exponential(mean: .minutes(30))
    let n = 20_000
    var total: Int64 = 0
    for _ in 0..<n { total += d.draw(&g).nanoseconds }
    let mean = Double(total) / Double(n) / 60e9
    #expect(abs(mean - 30) < 1)
  }

  @Test(arguments: [
    (
      #"{"network": {"on": {"interface": "wifi"}, "off": {"interface": "none"}, "onFor": "1h"}}"#,
      "missing required key 'offFor'"
    ),
    (
      #"{"network": {"on": {"interface": "wfi"}, "off": {"interface": "none"}, "onFor": "1h", "offFor": "1h"}}"#,
      "did you mean 'wifi'?"
    ),
    (#"{"terminations": {"every": {"exponental": "1h"}}}"#, "expected one of 'exponential' or 'uniform'"),
    (#"{"terminations": {"every": {"uniform": ["2h", "1h"]}}}"#, "low <= high"),
    (#"{"terminations": {"every": "0s"}}"#, "above 0"),
    (#"{"terminations": {"every": "1h", "from": "2h", "until": "1h"}}"#, "'until' must be after 'from'"),
    (#"{"termination": {}}"#, "did you mean 'terminations'?"),
  ])
  func reportsMistakes(random: String, message: String) {
    let text = #"{"name": "r", "random": "# + random + "}"
    do {
      _ = try ScenarioLoader.load(data: Array(text.utf8), file: "r.json")
      Issue.record("expected an error about \(message)")
    } catch {
      #expect(error.lines.joined(separator: "\n").contains(message), "\(error.lines)")
      #expect(error.lines.allSatisfy { $0.hasPrefix("r.json: random") }, "\(error.lines)")
    }
  }
}
