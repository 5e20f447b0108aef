import BgsimTesting
import Foundation
import QueuedDownloader
import Testing

/// Each planted bug found and named by an exploration given only what the user does: no
/// termination, force quit or time of one is in these tests.
@Suite struct QueuedExplorationTests {
  /// Five 50 MB files, two at a time: the user taps Download All at 1 s and leaves at 2 s.
  let world = ExplorationWorld(duration: .hours(1)) { seed in
    Worlds.simulation(seed: seed, files: 5, size: 50_000_000)
  } user: { sim in
    Worlds.userTapsDownloadAll(sim, files: 5)
  }

  static func app(_ configuration: QueuedDownloaderConfiguration) -> Exploration.App {
    { _ in QueuedAppDelegate(configuration) }
  }

  static let base = QueuedDownloaderConfiguration(maxConcurrentDownloads: 2)

  // Twenty seeds (of the default hundred) keep each exploration to seconds; they draw a force
  // quit several times, and every kill point is run whatever the seeds.
  static let seeds: ClosedRange<UInt64> = 1...20

  @Test func aQueueKeptInMemoryIsFoundAsTerminationNotTransparent() throws {
    var buggy = Self.base
    buggy.plantsInMemoryQueue = true
    let report = Exploration.run(world, app: Self.app(buggy), seeds: Self.seeds)
    let finding = try #require(report.findings.first { $0.rule == "terminationNotTransparent" })
    #expect(finding.faults.count == 1)
    // The downloads still waiting when the process died are gone from the account.
    #expect(finding.message.contains("file5.bin: done"))
    let replay = Exploration.replay(world, app: Self.app(buggy), faults: finding.faults, seed: finding.seed)
    #expect(replay.findings.map(\.rule).contains("terminationNotTransparent"))
  }

  @Test func aForceQuitRecoveryThatWaitsForATapIsFoundAsForceQuitNotRecovered() throws {
    var buggy = Self.base
    buggy.plantsForceQuitWaitsForTap = true
    let report = Exploration.run(world, app: Self.app(buggy), seeds: Self.seeds)
    let finding = try #require(report.findings.first { $0.rule == "forceQuitNotRecovered" })
    #expect(finding.message.contains("paused"))
    #expect(!report.findings.contains { $0.rule == "terminationNotTransparent" })
  }

  @Test func theCorrectManagerExploresClean() {
    let report = Exploration.run(world, app: Self.app(Self.base), seeds: Self.seeds)
    expectNoFindings(report)
    #expect(report.killPointsRun > 1)
  }
}
