import ScenarioKit
import SimKernel
import Testing

@testable import SimReport

/// The per-scenario page: lanes, task phases, wakes, lints, escaping and determinism, read
/// from the stable attributes the SVG promises (`data-lane`, `data-task`, `data-phase`, ...).
@Suite struct HTMLReportTests {
  static let deferred = ScenarioRunner.run(ReportScenarios.deferredDownload())
  static let chain = ScenarioRunner.run(ReportScenarios.chain())

  /// The stretched timeline of a run's page (the one shown by default).
  static func svg(_ result: RunResult) -> String {
    ReportScenarios.timeline(HTMLReport.render(result))
  }

  /// `(phase, reason)` of each bar of one task, in drawing (time) order.
  static func phases(of task: String, in page: String) -> [String] {
    let bar = /<rect class="bar [^"]*" data-task="([^"]*)" data-phase="([a-z]+)"(?: data-reason="([^"]*)")?/
    return page.matches(of: bar).filter { String($0.output.1) == task }.map { match in
      match.output.3.map { "\(match.output.2)(\($0))" } ?? String(match.output.2)
    }
  }

  static func count(_ needle: String, in page: String) -> Int {
    page.ranges(of: needle).count
  }

  @Test(arguments: ["app", "network", "power", "ratelimiter", "tasks"])
  func pageHasLane(_ lane: String) {
    let page = Self.svg(Self.deferred)
    #expect(Self.count("<g class=\"lane\" data-lane=\"\(lane)\">", in: page) == 1)
  }

  @Test func deferredDownloadWaitsForItsStartDateThenTransfersThenIsDone() {
    let page = Self.svg(Self.deferred)
    #expect(Self.phases(of: "book", in: page) == ["waiting(earliestBegin)", "transferring", "done"])
    #expect(Self.count("<g class=\"task\" data-task=", in: page) == 1)
    #expect(page.contains("<title>book: waiting: earliestBegin until 1h from 1s"))
  }

  @Test func chainShowsEachWaitingReasonAndTheGrowingDelay() {
    let page = Self.svg(Self.chain)
    #expect(Self.phases(of: "chapter-1", in: page) == ["transferring", "done"])
    #expect(
      Self.phases(of: "chapter-2", in: page) == [
        "waiting(discretionary)", "waiting(discretionary)", "waiting(discretionary)",
        "waiting(discretionary)",
        "transferring", "done",
      ])
    #expect(Self.phases(of: "chapter-3", in: page) == ["waiting(rateLimiter)", "transferring", "done"])
    #expect(page.contains(">1m</text>") && page.contains(">2m</text>"))
    #expect(Self.count("data-state=\"active\"", in: page) == 2)
  }

  @Test func backgroundWakesAreMarked() {
    #expect(Self.count("<line class=\"wake\"", in: Self.svg(Self.deferred)) == 1)
    let chain = Self.svg(Self.chain)
    #expect(Self.count("<line class=\"wake\"", in: chain) == 2)
    #expect(chain.contains("wake 2 at 1h1m6.52s: resumed in the background; rate limiter delay now 2m"))
  }

  @Test func runWithoutWakesHasNoWakeMarker() {
    var scenario = ReportScenarios.deferredDownload()
    scenario.timeline.removeLast()  // never backgrounded: the completion arrives in the foreground
    let page = HTMLReport.render(ScenarioRunner.run(scenario))
    #expect(Self.count("<line class=\"wake\"", in: page) == 0)
    #expect(Self.phases(of: "book", in: page).last == "done")
  }

  @Test func lintsAreMarkedAndListed() {
    let page = HTMLReport.render(Self.chain)
    let svg = ReportScenarios.timeline(page)
    #expect(Self.count("<g class=\"lint\" data-rule=\"completionHandlerNeverCalled\">", in: svg) == 2)
    #expect(Self.count("<td><code>completionHandlerNeverCalled</code></td>", in: page) == 2)
    #expect(!page.contains("The app broke no documented rule."))
    #expect(HTMLReport.render(Self.deferred).contains("The app broke no documented rule."))
  }

  @Test func expectationVerdictsShowExpectedAndFound() {
    let page = HTMLReport.render(Self.chain)
    #expect(page.contains("<tr class=\"ok\"><td class=\"ok\">ok</td><td><code>expect[0]</code></td>"))
    #expect(page.contains("<tr class=\"fail\"><td class=\"bad\">FAIL</td><td><code>expect[1]</code></td>"))
    #expect(page.contains("badge-fail\">FAIL"))
    #expect(HTMLReport.render(Self.deferred).contains("badge-pass\">PASS"))
  }

  @Test func runErrorAndDescriptionAreShown() {
    var result = Self.deferred
    result.runError = "timeline[3]: app not running"
    let page = HTMLReport.render(result)
    #expect(page.contains("<strong>Run error:</strong> timeline[3]: app not running"))
    #expect(
      page.contains(
        "<p class=\"description\">a download that waits for its start date, then wakes the app</p>"))
  }

  @Test func userTextIsEscaped() {
    var scenario = ReportScenarios.deferredDownload(name: "a<b>&\"c\"", taskName: "x<y>&z")
    scenario.description = "<script>alert('&')</script>"
    let page = HTMLReport.render(ScenarioRunner.run(scenario), file: "dir/<f>.json")
    #expect(page.contains("<h1>a&lt;b&gt;&amp;&quot;c&quot;<span"))
    #expect(page.contains("data-task=\"x&lt;y&gt;&amp;z\""))
    #expect(page.contains("&lt;script&gt;alert(&#39;&amp;&#39;)&lt;/script&gt;"))
    #expect(page.contains("<code>dir/&lt;f&gt;.json</code>"))
    #expect(!page.contains("<script"))
    #expect(!page.contains("x<y>"))
    #expect(!page.contains("a<b>"))
  }

  @Test func pageIsSelfContained() {
    let page = HTMLReport.render(Self.chain)
    #expect(!page.contains("<script"))
    #expect(!page.contains("<link"))
    #expect(!page.contains(" src="))
    #expect(!page.contains("url("))
    #expect(page.hasPrefix("<!DOCTYPE html>"))
  }

  /// A run of more tasks than the timeline draws: the first `taskRowLimit` get rows on each axis,
  /// a note counts the rest, and the account table still lists every task (40,000 tasks drew a
  /// 245 MB page before the limit).
  @Test func timelineDrawsAtMostTheRowLimitAndCountsTheRest() throws {
    let tasks = TimelineSVG.taskRowLimit + 3
    let json = """
      {"name": "many", "duration": "1h",
       "device": {"network": [{"at": "0s", "interface": "wifi", "down": "1Gbps", "latency": "10ms"}]},
       "server": {"resources": [{"url": "https://example.com/f", "size": "10KB"}]},
       "app": {"sessions": [{"identifier": "S", "kind": "background"}]},
       "timeline": [{"at": "0s", "do": "launch"},
                    {"at": "1s", "do": "download", "session": "S", "url": "https://example.com/f",
                     "name": "t-{n}", "count": \(tasks)}]}
      """
    let result = ScenarioRunner.run(try ScenarioLoader.load(data: Array(json.utf8), file: "many.json"))
    #expect(result.runError == nil)
    let page = HTMLReport.render(result)
    // Two axes, each with the limit's rows, each followed by the same note.
    #expect(Self.count("<g class=\"task\" data-task=", in: page) == 2 * TimelineSVG.taskRowLimit)
    #expect(page.contains("<g class=\"task\" data-task=\"t-\(TimelineSVG.taskRowLimit)\">"))
    #expect(!page.contains("<g class=\"task\" data-task=\"t-\(tasks)\">"))
    #expect(Self.count("data-undrawn=\"3\"", in: page) == 2)
    #expect(page.contains(">3 more tasks are not drawn (the first 1000 are)"))
    #expect(page.contains("<td><code>t-\(tasks)</code></td>"))
    // At the limit, nothing is left out and no note is written.
    let svg = TimelineSVG(
      model: TimelineModel(events: result.trace.events, end: result.endTime), maxTaskRows: tasks
    )
    .render()
    #expect(Self.count("<g class=\"task\" data-task=", in: svg) == tasks)
    #expect(!svg.contains("data-undrawn"))
  }

  @Test func sameRunGivesByteIdenticalPages() {
    let first = HTMLReport.render(ScenarioRunner.run(ReportScenarios.chain()))
    let second = HTMLReport.render(ScenarioRunner.run(ReportScenarios.chain()))
    #expect(first == second)
    #expect(Array(first.utf8) == Array(second.utf8))
  }
}
