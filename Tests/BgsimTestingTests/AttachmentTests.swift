import Foundation
import Testing

@testable import BgsimTesting

/// What each test issue carries to the test runner: the trace, the report page (HTML) and, for
/// a finding, the replay scenario. The helpers attach these files where the framework can
/// (Swift Testing 6.2+, XCTest on Darwin); here the files themselves are checked.
@Suite struct AttachmentTests {
  @Test func aFindingCarriesItsTraceReportPageAndReplay() throws {
    let report = Exploration.run(
      lateWriteWorld(), app: { _ in LateWriteApp(saveDelay: 0.2) }, faults: [.systemTermination],
      seeds: 1...1, jobs: 1)
    let finding = try #require(report.findings.first)
    let issue = try #require(TestIssue.issues(report).first)
    #expect(
      issue.attachments.map(\.name) == [
        "finding-1-terminationNotTransparent-trace.jsonl", "finding-1-terminationNotTransparent-report.html",
        "finding-1-terminationNotTransparent-replay.json",
      ])
    let page = issue.attachments[1].content
    #expect(page == finding.reportPage)
    #expect(page.hasPrefix("<!DOCTYPE html>"))
    #expect(page.contains("<h1>bgsim finding: terminationNotTransparent"))
    // The verdict: the fault, what differs, the replay call; then the run's timeline and trace.
    #expect(page.contains(escaped("'big.bin: done' (baseline) is missing")))
    #expect(page.contains(escaped(finding.replayCall)))
    #expect(page.contains("<svg"))
    #expect(page.contains("\(finding.trace.count) events"))
    #expect(issue.attachments[2].content == finding.replayScenario)
    // The same finding gives the same page, byte for byte.
    let again = Exploration.run(
      lateWriteWorld(), app: { _ in LateWriteApp(saveDelay: 0.2) }, faults: [.systemTermination],
      seeds: 1...1, jobs: 1)
    #expect(again.findings.first?.reportPage == page)
  }

  @Test func aSimulationsLintCarriesItsTraceAndReportPage() throws {
    let sim = Simulation(seed: 1)
    sim.installApp { _ in LateWriteApp(saveDelay: 0) }
    sim.launchApp()
    let app = sim.currentAppDelegate as? LateWriteApp
    _ = app?.application.makeURLSession(
      configuration: .simulatedBackground(withIdentifier: "late-write"), delegate: app, delegateQueue: nil)
    sim.run(until: SimTime(.seconds(1)))
    let issue = try #require(TestIssue.issues(sim).first)
    #expect(issue.attachments.map(\.name) == ["trace.jsonl", "report.html"])
    #expect(issue.attachments[1].content.contains("<code>duplicateSessionIdentifier</code>"))
    #expect(issue.attachments[1].content.contains(escaped(issue.message)))
  }

  @Test func aScenarioRunCarriesItsOwnReportPage() throws {
    let result = try runScenarioExpectingTwoLaunches()
    let issue = try #require(TestIssue.issues(result).first)
    #expect(issue.attachments.map(\.name) == ["trace.jsonl", "report.html"])
    let page = issue.attachments[1].content
    #expect(page.contains("<h1>expects-a-launch<span class=\"badge badge-fail\">FAIL</span></h1>"))
    #expect(page.contains("<td class=\"bad\">FAIL</td>"))
  }

  /// `text` as the page writes it (`&`, `<`, `>`, `"` and `'` escaped).
  func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
      .replacingOccurrences(of: "'", with: "&#39;")
  }
}
