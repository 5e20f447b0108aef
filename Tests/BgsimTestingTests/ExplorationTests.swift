import BgsimTesting
import Foundation
import Testing

/// Exploration of the late-write app (LateWriteApp.swift): the test names no termination time.
@Suite struct ExplorationTests {
  static func buggy(_ application: SimulatedApplication) -> SimulatedAppDelegate {
    LateWriteApp(saveDelay: 0.2)
  }
  static func correct(_ application: SimulatedApplication) -> SimulatedAppDelegate {
    LateWriteApp(saveDelay: 0)
  }

  @Test func findsTheLateWriteAsTerminationNotTransparentInsideTheWindow() throws {
    let report = Exploration.run(lateWriteWorld(), app: Self.buggy, seeds: 1...5, jobs: 2)
    let finding = try #require(report.findings.first { $0.rule == "terminationNotTransparent" })
    #expect(finding.faults.count == 1)
    // The completion the app handled last before the fault, and the write it armed 200 ms later.
    let fault = try #require(finding.faults.first)
    let handled = try #require(
      finding.trace.last { $0.kind == "delegate.didFinishDownloading" && $0.time <= fault.at })
    let windowEnd = handled.time + .milliseconds(200)
    #expect(fault.at >= handled.time && fault.at < windowEnd)
    #expect(finding.message.contains("'big.bin: done' (baseline) is missing"))
    #expect(finding.message.contains("timers pending for"))
    #expect(finding.reachedBy >= 1)
    #expect(report.killPoints >= report.killPointsRun && report.killPointsRun > 0)
    #expect(report.description.contains("Exploration.replay(world, app: app, faults: [.terminate(at:"))
  }

  @Test func theReplayReproducesTheFinding() throws {
    let report = Exploration.run(lateWriteWorld(), app: Self.buggy, seeds: 1...2, jobs: 2)
    let finding = try #require(report.findings.first { $0.rule == "terminationNotTransparent" })
    let replay = Exploration.replay(
      lateWriteWorld(), app: Self.buggy, faults: finding.faults, seed: finding.seed)
    #expect(replay.findings.map(\.rule) == ["terminationNotTransparent"])
    #expect(replay.findings.first?.trace == finding.trace)
    // The same faults on the fixed app: nothing.
    let fixed = Exploration.replay(
      lateWriteWorld(), app: Self.correct, faults: finding.faults, seed: finding.seed)
    #expect(fixed.findings.isEmpty)
  }

  @Test func theCorrectAppExploresClean() {
    let report = Exploration.run(lateWriteWorld(), app: Self.correct, seeds: 1...8, jobs: 2)
    #expect(report.findings.isEmpty, "\(report)")
    #expect(report.runs > 8)
  }

  @Test func aForceQuitRecoveryThatWaitsForTheUserIsFound() throws {
    let report = Exploration.run(
      lateWriteWorld(), app: { _ in LateWriteApp(saveDelay: 0, resumesAfterForceQuit: false) },
      faults: [.forceQuit], seeds: 1...4, jobs: 2)
    let finding = try #require(report.findings.first)
    #expect(report.findings.map(\.rule) == ["forceQuitNotRecovered"])
    #expect(finding.faults.count == 1)
    #expect(finding.message.contains("failed -999"))
    #expect(report.killPointsRun == 0)
  }

  @Test func resultsAreTheSameWhateverTheJobsAndAcrossExplorations() {
    let one = Exploration.run(lateWriteWorld(), app: Self.buggy, seeds: 1...4, jobs: 1)
    let two = Exploration.run(lateWriteWorld(), app: Self.buggy, seeds: 1...4, jobs: 2)
    let again = Exploration.run(lateWriteWorld(), app: Self.buggy, seeds: 1...4, jobs: 2)
    #expect(!one.findings.isEmpty)
    #expect(one.description == two.description)
    #expect(two.description == again.description)
    #expect(one.findings.map(\.replayScenario) == again.findings.map(\.replayScenario))
    #expect(one.findings.map(\.trace) == again.findings.map(\.trace))
  }

  @Test func thePropertyIsAnOracle() throws {
    let report = Exploration.run(
      lateWriteWorld(), app: Self.correct, faults: [.network], seeds: 1...2, jobs: 2,
      property: { outcome in
        outcome.files["Documents/big.bin"] == nil
          ? "the file is not in Documents" : "always: \(outcome.files.count) file"
      })
    // The property fails in the baseline already: one finding, no fault.
    let finding = try #require(report.findings.first)
    #expect(report.findings.count == 1)
    #expect(finding.rule == "property")
    #expect(finding.faults.isEmpty)
    #expect(finding.message == "always: 1 file")
  }

  @Test func theReplayScenarioRunsWithTheSwiftApp() throws {
    let report = Exploration.run(
      lateWriteWorld(), app: Self.buggy, faults: [.systemTermination], seeds: 1...1, jobs: 1)
    let finding = try #require(report.findings.first)
    #expect(finding.replayScenario.contains("\"do\": \"terminate\""))
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bgsim-replay-\(UInt32.random(in: 0...UInt32.max)).json")
    try finding.replayScenario.write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let result = try ScenarioRunner.run(file: file.path, app: Self.buggy)
    #expect(result.runError == nil)
    let terminations = result.trace.events.filter { $0.kind == "app.terminate" }
    #expect(terminations.map(\.time) == finding.faults.map(\.at))
  }

  @Test func theShardVariableSplitsTheRunsAndAMalformedOneFailsClearly() throws {
    let whole = Exploration.run(lateWriteWorld(), app: Self.correct, seeds: 1...4, jobs: 2, environment: [:])
    let parts = ["1/2", "2/2"].map {
      Exploration.run(
        lateWriteWorld(), app: Self.correct, seeds: 1...4, jobs: 2, environment: ["BGSIM_EXPLORE_SHARD": $0])
    }
    #expect(parts[0].runs + parts[1].runs == whole.runs)
    #expect(parts[0].runs > 0 && parts[1].runs > 0)
    let bad = Exploration.run(
      lateWriteWorld(), app: Self.correct, seeds: 1...4, jobs: 2, environment: ["BGSIM_EXPLORE_SHARD": "5/2"])
    #expect(bad.findings.map(\.rule) == ["invalidShard"])
    #expect(bad.findings.first?.message.contains("BGSIM_EXPLORE_SHARD is '5/2'") == true)
    #expect(bad.runs == 0)
  }
}
