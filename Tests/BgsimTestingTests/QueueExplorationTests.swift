import BgsimTesting
import Foundation
import Testing

/// The queue that stalls after a process death, found without the test naming a termination or
/// a count of files.
@Suite struct QueueExplorationTests {
  @Test func aQueueKeptInMemoryStallsAfterATermination() throws {
    let report = Exploration.run(
      queueWorld(), app: { _ in QueueApp(persistsQueue: false) }, faults: [.systemTermination], seeds: 1...1,
      jobs: 2)
    // Each kill point stalls the queue at another file: one finding per difference, all one rule.
    let finding = try #require(report.findings.first)
    #expect(Set(report.findings.map(\.rule)) == ["terminationNotTransparent"])
    #expect(finding.faults.count == 1)
    #expect(finding.message.contains("the account's line 'part5.bin' (baseline) is missing"))
    #expect(finding.message.contains("Documents/part5.bin is missing at the end of the world"))
  }

  @Test func aPersistedQueueExploresClean() {
    let report = Exploration.run(
      queueWorld(), app: { _ in QueueApp(persistsQueue: true) }, faults: [.systemTermination], seeds: 1...1,
      jobs: 2)
    #expect(report.findings.isEmpty, "\(report)")
    #expect(report.killPointsRun > 1)
  }
}
