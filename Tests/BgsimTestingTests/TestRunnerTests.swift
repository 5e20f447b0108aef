import BgsimTesting
import Foundation
import Testing

/// The test-runner helpers record what they are given as issues (a known issue here), and nothing
/// when there is nothing.
@Suite struct TestRunnerTests {
  @Test func eachFindingIsAnIssue() {
    let report = Exploration.run(
      lateWriteWorld(), app: { _ in LateWriteApp(saveDelay: 0.2) }, faults: [.systemTermination],
      seeds: 1...1, jobs: 1)
    #expect(report.findings.count == 1)
    withKnownIssue {
      expectNoFindings(report)
    } matching: { issue in
      issue.description.contains("terminationNotTransparent")
    }
  }

  @Test func aCleanReportRecordsNothing() {
    let report = Exploration.run(
      lateWriteWorld(), app: { _ in LateWriteApp(saveDelay: 0) }, faults: [.systemTermination], seeds: 1...1,
      jobs: 1)
    expectNoFindings(report)
  }

  @Test func aSimulationsLintsAreIssues() {
    let sim = Simulation(seed: 1)
    sim.installApp { _ in LateWriteApp(saveDelay: 0) }
    sim.launchApp()
    // A second live session with the same identifier: the duplicateSessionIdentifier lint.
    let app = sim.currentAppDelegate as? LateWriteApp
    _ = app?.application.makeURLSession(
      configuration: .simulatedBackground(withIdentifier: "late-write"), delegate: app, delegateQueue: nil)
    sim.run(until: SimTime(.seconds(1)))
    #expect(sim.trace.events.contains { $0.kind == "lint" })
    withKnownIssue {
      expectNoIssues(sim)
    } matching: { issue in
      issue.description.contains("duplicateSessionIdentifier")
    }
  }

  @Test func aScenarioRunsFailedExpectationsAreIssues() throws {
    let result = try runScenarioExpectingTwoLaunches()
    #expect(result.failedExpectations.count == 1)
    withKnownIssue {
      expectNoIssues(result)
    } matching: { issue in
      issue.description.contains("expectation failed")
    }
  }
}
