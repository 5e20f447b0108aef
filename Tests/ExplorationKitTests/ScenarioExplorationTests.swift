import ExplorationKit
import Foundation
import ScenarioKit
import SimKernel
import Testing

/// Exploration of a scripted scenario, without the bridge: sharding, the account, findings.json.
@Suite struct ScenarioExplorationTests {
  /// The app does not recreate its session when relaunched in the background; nothing in the
  /// file terminates it.
  static let scenario: Scenario = {
    let json = """
      {"name": "maps", "seed": 13, "duration": "1h",
       "server": {"resources": [{"url": "https://example.com/tiles.zip", "size": "120MB", "etag": "t"}]},
       "app": {"sessions": [{"identifier": "Maps", "kind": "background"}],
               "behavior": {"recreatesSessionsOnLaunch": false}},
       "timeline": [{"at": "0s", "do": "launch"},
                    {"at": "1s", "do": "download", "session": "Maps", "url": "https://example.com/tiles.zip", "name": "tiles"},
                    {"at": "2s", "do": "background"}]}
      """
    return try! ScenarioLoader.load(data: Array(json.utf8), file: "maps.json")
  }()

  func explore(seeds: [UInt64], jobs: Int = 2, shard: Shard? = nil) -> ExplorationReport {
    let plan = ExplorationPlan(seeds: seeds, jobs: jobs, shard: shard, worldSeed: Self.scenario.seed)
    return Explorer.explore(ScenarioExploration.subject(Self.scenario), plan: plan, property: nil)
  }

  @Test func findsTheLostEventsAtAKillPoint() throws {
    let report = explore(seeds: [])
    #expect(report.findings.map(\.rule) == ["terminationNotTransparent", "sessionNotRecreated"])
    let finding = try #require(report.findings.first)
    #expect(finding.faults == [.terminate(at: SimTime(.seconds(2)))])
    #expect(finding.message.contains("'tiles: completed 200, file delivered' (baseline) is missing"))
    #expect(finding.message.contains("'tiles: no completion'"))
  }

  @Test func shardsSplitTheRunsAndTogetherFindWhatTheWholeFinds() {
    let seeds = Array(UInt64(1)...12)
    let whole = explore(seeds: seeds)
    let first = explore(seeds: seeds, shard: Shard("1/2"))
    let second = explore(seeds: seeds, shard: Shard("2/2"))
    #expect(first.runs + second.runs == whole.runs)
    #expect(first.runs > 0 && second.runs > 0)
    let rules = Set(first.findings.map(\.rule)).union(second.findings.map(\.rule))
    #expect(rules == Set(whole.findings.map(\.rule)))
    let reached = (first.findings + second.findings).reduce(into: [String: Int]()) {
      $0[$1.rule, default: 0] += $1.reachedBy
    }
    #expect(
      reached == whole.findings.reduce(into: [String: Int]()) { $0[$1.rule, default: 0] += $1.reachedBy })
  }

  @Test func findingsJSONIsTheSameWhateverTheJobs() {
    let seeds = Array(UInt64(1)...8)
    let one = explore(seeds: seeds, jobs: 1)
    let three = explore(seeds: seeds, jobs: 3)
    let render = { (report: ExplorationReport) in
      FindingsJSON.render(
        report, scenario: "maps.json", seeds: "1-8", shard: nil,
        replayFiles: report.findings.indices.map { "replay-\($0).json" })
    }
    #expect(render(one) == render(three))
    #expect(render(one).contains("\"rule\": \"sessionNotRecreated\""))
  }

  @Test func theAccountIsWhatTheAppWasTold() {
    let sim = ScenarioRunner.prepare(Self.scenario)
    sim.run(until: SimTime(.minutes(5)))
    #expect(ScenarioExploration.account(of: sim.trace) == "tiles: completed 200, file delivered")
  }

  /// Two tasks whose names differ only in their Unicode form each get their line, in byte order
  /// (the decomposed `e` + accent before the composed `é`), and one's completion is not the other's.
  @Test func theAccountTellsNamesApartByTheirBytes() throws {
    let json = """
      {"name": "forms", "duration": "1h",
       "server": {"resources": [{"url": "https://h/a", "size": "1MB", "etag": "a"}]},
       "app": {"sessions": [{"identifier": "S", "kind": "background"}]},
       "timeline": [{"at": "0s", "do": "launch"},
                    {"at": "1s", "do": "download", "session": "S", "url": "https://h/a", "name": "\u{E9}"},
                    {"at": "1s", "do": "download", "session": "S", "url": "https://h/a", "name": "e\u{301}"},
                    {"at": "1s", "do": "cancel", "task": "e\u{301}"}]}
      """
    let sim = ScenarioRunner.prepare(try ScenarioLoader.load(data: Array(json.utf8), file: "forms.json"))
    sim.run(until: SimTime(.minutes(5)))
    let lines = ScenarioExploration.account(of: sim.trace).split(separator: "\n").map(String.init)
    #expect(lines.count == 2)
    #expect(lines.first?.hasSameUTF8("e\u{301}: error -999") == true)
    #expect(lines.last?.hasSameUTF8("\u{E9}: completed 200, file delivered") == true)
  }
}
