import Foundation
import ScenarioKit
import SimKernel
import Testing

@testable import SimReport

/// The report directory: a page per scenario, an index linking them.
@Suite struct ReportWriterTests {
  func temporaryDirectory() -> String {
    let dir = NSTemporaryDirectory() + "simreport-\(UUID().uuidString)"
    return dir
  }

  @Test func writesAPagePerScenarioAndAnIndexLinkingThem() throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let deferred = ScenarioRunner.run(ReportScenarios.deferredDownload())
    let chain = ScenarioRunner.run(ReportScenarios.chain())
    let written = try ReportWriter.write(
      results: [("Scenarios/deferred.json", deferred), ("Scenarios/chain.json", chain)], to: dir + "/nested")
    #expect(
      written.map { ($0 as NSString).lastPathComponent } == [
        "deferred-download.html", "rate-limiter-chain.html", "index.html",
      ])
    let index = try String(contentsOfFile: dir + "/nested/index.html", encoding: .utf8)
    #expect(
      index.contains(
        "<a href=\"deferred-download.html\">deferred-download</a></td><td class=\"ok\">pass</td>"))
    #expect(
      index.contains(
        "<a href=\"rate-limiter-chain.html\">rate-limiter-chain</a></td><td class=\"bad\">FAIL</td>"))
    #expect(index.contains("<td>1h5m6.52s</td>"))
    #expect(index.contains("1 passed, 1 failed"))
    let page = try String(contentsOfFile: dir + "/nested/deferred-download.html", encoding: .utf8)
    #expect(page == HTMLReport.render(deferred, file: "Scenarios/deferred.json"))
    #expect(page.contains("<a href=\"index.html\">"))
  }

  @Test func unsafeAndCollidingNamesGetDistinctSafeFiles() {
    #expect(
      ReportWriter.pageNames(["a b", "a/b", "index", "<&>", "ok.v2"]) == [
        "a-b.html", "a-b-2.html", "index-2.html", "---.html", "ok.v2.html",
      ])
  }

  @Test func indexEscapesNamesAndLinks() {
    let entry = ReportIndex.Entry(
      name: "<x&y>", description: "\"quoted\"", passed: true, simulatedTime: SimTime(.hours(2)),
      link: "x&y.html", file: "a<b>.json")
    let index = ReportIndex.render([entry])
    #expect(index.contains("<a href=\"x&amp;y.html\">&lt;x&amp;y&gt;</a>"))
    #expect(index.contains("<td>&quot;quoted&quot;</td>"))
    #expect(index.contains("<td>2h</td>"))
  }
}
