import ScenarioKit
import SimKernel
import Testing
import TransferEngine

@testable import SimReport

/// The task accounts as `bgsim run`, `bgsim explain` and the report print them.
@Suite struct AccountTextTests {
  /// `n` tasks, task `t<i>` cancelled at `i` seconds and delivered at once.
  static func tasks(_ n: Int) -> [TraceEvent] {
    var events: [TraceEvent] = []
    for i in 1...n {
      events.append(TraceEvent(time: .zero, kind: "task.created", fields: [.init("task", .string("t\(i)"))]))
    }
    for i in 1...n {
      let time = SimTime(.seconds(Int64(i)))
      events.append(TraceEvent(time: time, kind: "task.cancelled", fields: [.init("task", .string("t\(i)"))]))
      events.append(
        TraceEvent(time: time, kind: "delegate.didComplete", fields: [.init("task", .string("t\(i)"))]))
    }
    return events
  }

  @Test("run's table: the 20 slowest, slowest first, then a count of the rest")
  func bounded() {
    let accounts = TaskAccounts.compute(Self.tasks(25), endTime: SimTime(.seconds(30)))
    let text = AccountText.table(accounts)
    let rows = text.split(separator: "\n").dropFirst(2)
    #expect(rows.count == 21)
    #expect(rows.first?.hasPrefix("  t25 ") == true)
    #expect(rows.dropLast().last?.hasPrefix("  t6 ") == true)
    #expect(rows.last == "  ... and 5 more tasks, none slower than these")
    #expect(!AccountText.table(Array(accounts.prefix(3))).contains("more task"))
  }

  @Test("where the time went: largest first, discretionary with its missing conditions, wasted bytes")
  func summary() throws {
    let path = ReportScenarios.libraryPath("discretionary-earliest-begin.json")
    let result = ScenarioRunner.run(try ScenarioLoader.load(path: path))
    let feed = try #require(TaskAccounts.compute(result).first { $0.task == "feed" })
    #expect(
      AccountText.whereTheTimeWent(feed)
        == "waiting: earliest begin date 1h, waiting: discretionary (missing wifi) 29m50s, "
        + "transferring 121.92ms")
    var wasteful = feed
    wasteful.bytesWasted = 20_000_000
    #expect(AccountText.whereTheTimeWent(wasteful).hasSuffix("; wasted 20MB"))
  }

  @Test("explain: the dates, the breakdown, and the trace line that began each interval")
  func explain() throws {
    let path = ReportScenarios.libraryPath("wifi-lost-mid-download.json")
    let result = ScenarioRunner.run(try ScenarioLoader.load(path: path))
    let bg = try #require(TaskAccounts.compute(result).first { $0.task == "bg" })
    let text = AccountText.explain(bg, events: result.trace.events)
    #expect(text.hasPrefix("Task bg (session Background): finished, took 10m2.52s\n"))
    #expect(text.contains("  delivered      10m3.52s (delegate.didComplete)\n"))
    #expect(text.contains("  1.86s to 11.86s (10s)  retry backoff [networkLost]\n"))
    #expect(text.contains("      1.86s  task   interrupted bg reason=networkLost bytes=200000\n"))
    #expect(text.contains("  11.86s to 10m1.86s (9m50s)  waiting: connectivity\n"))
    #expect(text.contains("  waiting: connectivity  9m50s  97.9%\n"))
  }

  @Test(arguments: [
    (Int64(0), "0B"), (999, "999B"), (1_000, "1KB"), (1_970_000, "1.97MB"), (20_000_000, "20MB"),
    (1_500_000_000, "1.5GB"), (1_050_000, "1.05MB"),
  ])
  func bytes(_ value: Int64, _ text: String) {
    #expect(ByteText.readable(value) == text)
  }

  @Test("the report has the same accounts in a table under the timeline")
  func reportTable() throws {
    let path = ReportScenarios.libraryPath("wifi-lost-mid-download.json")
    let result = ScenarioRunner.run(try ScenarioLoader.load(path: path))
    let page = HTMLReport.render(result)
    let table = try #require(page.range(of: "<table class=\"accounts\">"))
    #expect(
      try #require(page.range(of: "<div class=\"scroll timeline-stretched\">")).upperBound < table.lowerBound)
    let bg = try #require(TaskAccounts.compute(result).first { $0.task == "bg" })
    #expect(page.contains("<td>\(AccountText.whereTheTimeWent(bg))</td>"))
  }
}
