import BgsimTesting
import Foundation
import Testing

@Suite struct ExplorationTests {
  @Test func findsTheLateWriteAsTerminationNotTransparent() throws {
    let report = Exploration.run(
      lateWriteWorld(), app: { _ in LateWriteApp(saveDelay: 0.2) }, seeds: 1...10, jobs: 1)
    print(report)
    let finding = try #require(report.findings.first { $0.rule == "terminationNotTransparent" })
    #expect(finding.faults.count == 1)
  }

  @Test func theCorrectAppExploresClean() {
    let report = Exploration.run(
      lateWriteWorld(), app: { _ in LateWriteApp(saveDelay: 0) }, seeds: 1...10, jobs: 1)
    print(report)
    #expect(report.findings.isEmpty)
  }
}
