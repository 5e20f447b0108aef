import Foundation
import ScenarioKit
import SimKernel
import SimReport
import Testing

@Suite("HTML reports: pages, markers, writer")
struct ReportPageTests {
  static func bars(_ html: String, task: String) -> [String] {
    html.components(separatedBy: "<rect class=\"bar ").dropFirst()
      .filter { $0.contains("data-task=\"\(task)\"") }
      .compactMap {
        $0.components(separatedBy: "data-phase=\"").dropFirst().first?.components(separatedBy: "\"").first
      }
  }

  /// A page drawn from a trace alone takes each task's wasted bytes in creation order when given
  /// them: two tasks whose names differ only in their Unicode form show their own, not a sum.
  @Test("a trace page's accounts show each task's own wasted bytes")
  func tracePageWastedPerTask() {
    let events = ["\u{E9}", "e\u{301}"].map { name in
      TraceEvent(
        time: .zero, kind: "task.created",
        fields: [TraceField("task", .string(name)), TraceField("session", .string("S"))])
    }
    func page(_ inOrder: [Int64]) -> String {
      TracePage.render(
        title: "t", verdict: "v", seed: 0, events: events, endTime: SimTime(.seconds(1)),
        wasted: ["\u{E9}": 3_000], wastedInCreationOrder: inOrder)
    }
    let own = page([1_000, 2_000])
    #expect(own.contains("wasted 1KB") && own.contains("wasted 2KB") && !own.contains("wasted 3KB"))
    // Without the list, the sum by name (one key for both forms) is all there is.
    #expect(!page([]).contains("wasted 1KB") && page([]).contains("wasted 3KB"))
  }

  @Test("the page has every lane and one bar per phase of each task, in order")
  func lanesAndBars() {
    let html = HTMLReport.render(ScenarioRunner.run(ReportScenarios.deferredDownload()))
    for lane in ["app", "network", "power", "ratelimiter", "tasks"] {
      #expect(html.contains("class=\"lane\" data-lane=\"\(lane)\""))
    }
    #expect(Self.bars(ReportScenarios.timeline(html), task: "book") == ["waiting", "transferring", "done"])
    #expect(html.contains("data-reason=\"earliestBegin\""))
    #expect(html.contains("<svg"))
    #expect(!html.contains("http://") || html.contains("http://www.w3.org/2000/svg"))
    #expect(!html.contains("<script src") && !html.contains("<link rel=\"stylesheet\""))
  }

  @Test("background wakes are marked")
  func wakes() {
    let html = HTMLReport.render(ScenarioRunner.run(ReportScenarios.deferredDownload()))
    #expect(html.contains("class=\"wake-marker\" data-wake=\"1\""))
    let chain = HTMLReport.render(ScenarioRunner.run(ReportScenarios.chain()))
    #expect(chain.contains("data-wake=\"2\""))
  }

  @Test("expectation results and lints are listed")
  func verdictsAndLints() {
    let html = HTMLReport.render(ScenarioRunner.run(ReportScenarios.chain()))
    #expect(html.contains("completionHandlerNeverCalled"))
    #expect(html.contains("FAIL"))
    #expect(html.contains("expect[0]"))
  }

  @Test("names and text are escaped for HTML")
  func escaping() {
    let result = ScenarioRunner.run(ReportScenarios.deferredDownload(name: "a<b>&c", taskName: "t<&>\"x"))
    let html = HTMLReport.render(result)
    #expect(!html.contains("a<b>&c"))
    #expect(html.contains("a&lt;b&gt;&amp;c"))
    #expect(!html.contains("t<&>"))
  }

  @Test("the same run renders byte-identical pages")
  func deterministic() {
    let a = HTMLReport.render(ScenarioRunner.run(ReportScenarios.chain()))
    let b = HTMLReport.render(ScenarioRunner.run(ReportScenarios.chain()))
    #expect(a == b)
  }

  @Test("the writer makes a page per scenario and an index linking them, with unique names")
  func writerAndIndex() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bgsim-report-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let one = ScenarioRunner.run(ReportScenarios.deferredDownload())
    let two = ScenarioRunner.run(ReportScenarios.deferredDownload())
    let written = try ReportWriter.write(results: [("a.json", one), ("b.json", two)], to: directory.path)
    #expect(
      written.map { ($0 as NSString).lastPathComponent } == [
        "deferred-download.html", "deferred-download-2.html", "index.html",
      ])
    let index = try String(contentsOfFile: written[2], encoding: .utf8)
    #expect(index.contains("href=\"deferred-download.html\""))
    #expect(index.contains("href=\"deferred-download-2.html\""))
    #expect(ReportWriter.pageNames(["index", "x y/z"]) == ["index-2.html", "x-y-z.html"])
  }
}
