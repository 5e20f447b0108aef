import Foundation
import ScenarioKit
import SimKernel
import Testing
import TransferEngine

@testable import SweepKit

@Suite struct SweepRunTests {
  static let plan = try! SweepPlan(
    parameters: [
      try! SweepParameter.parse("rateLimiter.growth=1.5,3"),
      try! SweepParameter.parse("rateLimiter.maxDelay=5m,null"),
    ],
    seeds: Array(1...5))

  /// A task's time runs from its own creation: two tasks whose names differ only in their
  /// Unicode form are two tasks, and the later one's creation does not shorten the other's time.
  @Test func taskTimesTellNamesApartByTheirBytes() throws {
    let text = """
      {"name": "forms", "duration": "1h",
       "server": {"resources": [{"url": "https://h/a", "size": "100MB", "etag": "a"},
                                {"url": "https://h/b", "size": "1MB", "etag": "b"}]},
       "app": {"sessions": [{"identifier": "S", "kind": "background"}]},
       "timeline": [{"at": "0s", "do": "launch"},
                    {"at": "1s", "do": "download", "session": "S", "url": "https://h/a", "name": "\u{E9}"},
                    {"at": "2s", "do": "download", "session": "S", "url": "https://h/b", "name": "e\u{301}"}]}
      """
    let result = ScenarioRunner.run(try ScenarioLoader.load(data: Array(text.utf8), file: "forms.json"))
    let finished = try #require(
      result.trace.events.first {
        $0.kind == "task.finished" && $0["task"]?.description.hasSameUTF8("\u{E9}") == true
      })
    let m = RunMetrics(result)
    #expect(m.finished == 2)
    // The longer of the two (nearest rank of two) is the composed one's, from 1 s.
    #expect(m.taskP95 == finished.time - SimTime(.seconds(1)))
  }

  @Test func metricsFollowTheRateLimiterChain() throws {
    var scenario = try SweepFixtures.load()
    scenario.random = nil
    let m = RunMetrics(ScenarioRunner.run(scenario))
    #expect(m.tasks == 3)
    #expect(m.finished == 3)
    #expect(m.allDone != nil)
    // e1 finishes -> wake 1 (delay 1m), e2 waits 1m; e2 finishes -> wake 2 (2m), e3 waits 2m.
    #expect(m.wakes == 3)
    #expect(m.maxDelay == .minutes(4))
    let rateLimiter = RunMetrics.deferralReasons.firstIndex(of: "rateLimiter")!
    #expect(m.deferred[rateLimiter] == .minutes(3))
    #expect(m.bytesOnWire == 180_000_000)
    #expect(m.bytesWasted == 0)
  }

  @Test func restartsFromZeroCountAsWasted() throws {
    // e3 has no ETag: an outage in the middle of it restarts it from zero.
    let text = SweepFixtures.chain.replacingOccurrences(
      of: #""random": {"#, with: #""x-random": {"#)
    var scenario = try SweepFixtures.load(text)
    scenario.device.network = [
      Step(at: .zero, NetworkState(interface: .wifi, down: .megabitsPerSecond(40))),
      Step(at: SimTime(.seconds(3 * 60 + 30)), .offline),
      Step(at: SimTime(.seconds(4 * 60)), NetworkState(interface: .wifi, down: .megabitsPerSecond(40))),
    ]
    let result = ScenarioRunner.run(scenario)
    let m = RunMetrics(result)
    #expect(m.finished == 3)
    #expect(m.bytesWasted > 0)
    #expect(m.bytesOnWire == 180_000_000 + m.bytesWasted)
    let connectivity = RunMetrics.deferralReasons.firstIndex(of: "connectivity")!
    #expect(m.deferred[connectivity] > .zero)
  }

  @Test("the wait for the app's challenge answer is its own column, not transfer time")
  func challengeAnswerColumn() throws {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent(
        "Scenarios/authentication-challenge-background.json"
      ).path
    // Launch events off: the challenge waits for the user's launch at 2m30s.
    var text = try String(contentsOfFile: path, encoding: .utf8)
    text = text.replacingOccurrences(
      of: #"{"identifier": "Premium", "kind": "background"}"#,
      with: #"{"identifier": "Premium", "kind": "background", "sendsLaunchEvents": false}"#)
    text = text.replacingOccurrences(
      of: #"{"at": "10s", "do": "background"}"#,
      with: #"{"at": "10s", "do": "background"}, {"at": "2m30s", "do": "launch"}"#)
    let result = ScenarioRunner.run(try ScenarioLoader.load(data: Array(text.utf8), file: "c.json"))
    let m = RunMetrics(result)
    let waited = TaskAccounts.compute(result).map { $0.time(in: .waitingForChallengeAnswer) }.reduce(
      SimDuration.zero, +)
    #expect(m.challengeAnswer == waited && waited > .seconds(29))
    let column = try #require(RunTable.metricColumns.firstIndex(of: "challengeAnswerSeconds"))
    let row = RunTable.row(run: 0, values: [], seed: 1, metrics: m)
    #expect(row[2 + column] == RunTable.seconds(waited))
  }

  @Test func jobsDoNotChangeTheRows() throws {
    let scenario = try SweepFixtures.load()
    let one = try Sweep.run(scenario, plan: Self.plan, jobs: 1)
    let three = try Sweep.run(scenario, plan: Self.plan, jobs: 3)
    #expect(one == three)
    #expect(one.rows.map { Int($0[0])! } == Array(0..<20))
  }

  @Test func seedsDrawDifferentConditions() throws {
    let scenario = try SweepFixtures.load()
    let table = try Sweep.run(scenario, plan: Self.plan, jobs: 2)
    let ends = Set(table.rows.prefix(5).map { $0[$0.count - 2] })
    #expect(ends.count > 1)
  }

  @Test func shardsMergeIntoTheWholeSweep() throws {
    let scenario = try SweepFixtures.load()
    let whole = try Sweep.run(scenario, plan: Self.plan, jobs: 2)
    var manifest = SweepFixtures.manifest(Self.plan, charts: ["allDoneSeconds", "wakes"])
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("sweepkit-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: base) }
    var directories: [String] = []
    for k in [3, 1, 2] {
      let shard = SweepShard(index: k, count: 3)
      var m = manifest
      m.shard = shard
      m.execution = SweepExecution(jobs: 1, runs: 7, wallSeconds: 0.5)
      let dir = base.appendingPathComponent("shard-\(k)").path
      try SweepOutput.write(
        manifest: m, table: try Sweep.run(scenario, plan: Self.plan, jobs: 1, shard: shard), to: dir)
      directories.append(dir)
    }
    let (mergedManifest, merged) = try SweepMerge.merge(directories, version: "0.1.0")
    #expect(mergedManifest.shards.map(\.shard.description) == ["1/3", "2/3", "3/3"])
    #expect(
      mergedManifest.shards.allSatisfy {
        $0.execution == SweepExecution(jobs: 1, wallSeconds: 0.5, runsPerSecond: 14)
      })
    manifest.shards = mergedManifest.shards
    #expect(mergedManifest == manifest)
    #expect(merged == whole)
    let a = SweepOutput.files(manifest: manifest, table: whole)
    let b = SweepOutput.files(manifest: mergedManifest, table: merged)
    #expect(a.map(\.name) == b.map(\.name))
    #expect(a.map(\.text) == b.map(\.text))
    #expect(
      throws: SweepError("1 of 3 shards are missing: 2/3; give every shard's directory (did a shard fail?)")
    ) {
      try SweepMerge.merge(Array(directories.prefix(2)), version: "0.1.0")
    }
    #expect(throws: SweepError.self) {
      try SweepMerge.merge(directories + [directories[0]], version: "0.1.0")
    }
    #expect(throws: SweepError.self) { try SweepMerge.merge(directories, version: "0.2.0") }
  }

  @Test func summaryHasOneLinePerPointAndAChart() throws {
    let scenario = try SweepFixtures.load()
    let table = try Sweep.run(scenario, plan: Self.plan, jobs: 2)
    let manifest = SweepFixtures.manifest(Self.plan, charts: ["allDoneSeconds"])
    let summary = SweepSummary(manifest: manifest, table: table)
    #expect(summary.points.map(\.values) == [["1.5", "5m"], ["1.5", "null"], ["3", "5m"], ["3", "null"]])
    #expect(summary.points.allSatisfy { $0.runs == 5 })
    #expect(summary.csv.split(separator: "\n").count == 5)
    #expect(summary.markdown.contains("| `3` | `null` |"))
    let svg = SweepChart.svg(summary, metric: "allDoneSeconds")
    #expect(svg.hasPrefix("<svg"))
    #expect(svg.components(separatedBy: "<polyline").count == 3)
  }
}

extension String {
  fileprivate func replacingOccurrences(of a: String, with b: String) -> String {
    split(separator: a, omittingEmptySubsequences: false).joined(separator: b)
  }
}
