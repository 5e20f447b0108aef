import BgsimFoundation
import ExplorationKit
import SimReport

/// What a test runner records for a report, a simulation or a scenario run: one issue each,
/// with the files worth attaching. Shared by the Swift Testing and XCTest helpers.
struct TestIssue {
  var message: String
  /// (file name, content): the trace as JSON Lines, the report page (HTML), the replay scenario.
  var attachments: [(name: String, content: String)]

  static func issues(_ report: ExplorationReport) -> [TestIssue] {
    report.findings.enumerated().map { index, finding in
      let prefix = "finding-\(index + 1)-\(finding.rule)"
      return TestIssue(
        message: "bgsim exploration: " + finding.description,
        attachments: [
          ("\(prefix)-trace.jsonl", finding.trace.map { $0.jsonLine + "\n" }.joined()),
          ("\(prefix)-report.html", finding.reportPage),
          ("\(prefix)-replay.json", finding.replayScenario),
        ])
    }
  }

  /// Each lint the simulation traced (once per rule), and an invariant it broke.
  static func issues(_ sim: Simulation) -> [TestIssue] {
    let page = { (verdict: String) in
      TracePage.render(
        title: "bgsim simulation", verdict: verdict, seed: sim.seed, events: sim.trace.events,
        endTime: sim.now,
        wastedInCreationOrder: sim.allTasks.map(\.bytesWasted))
    }
    var result = lintIssues(sim.trace, page: page)
    if let violation = sim.invariantViolation {
      let message = "bgsim invariant broken: \(violation)"
      result.append(TestIssue(message: message, attachments: trace(sim.trace, page: page(message))))
    }
    return result
  }

  /// A scenario run's failed expectations, its run error and its lints; the page is the
  /// scenario's own report page (`bgsim report`), its verdicts included.
  static func issues(_ result: RunResult) -> [TestIssue] {
    let html = HTMLReport.render(result, indexLink: nil)
    let files = trace(result.trace, page: html)
    var issues: [TestIssue] = []
    if let error = result.runError {
      issues.append(TestIssue(message: "bgsim run error: \(error)", attachments: files))
    }
    for expectation in result.failedExpectations {
      issues.append(
        TestIssue(
          message: "bgsim expectation failed in \(result.scenario.file): \(expectation)", attachments: files))
    }
    if let violation = result.invariantViolation {
      issues.append(TestIssue(message: "bgsim invariant broken: \(violation)", attachments: files))
    }
    return issues + lintIssues(result.trace) { _ in html }
  }

  /// One issue per lint rule the trace has (its first lint), each with the trace and `page(message)`.
  static func lintIssues(_ trace: TraceLog, page: (String) -> String) -> [TestIssue] {
    var seen = Set<String>()
    var issues: [TestIssue] = []
    for event in trace.events where event.kind == "lint" {
      guard case .string(let rule)? = event["rule"], seen.insert(rule).inserted else { continue }
      var message = rule
      if case .string(let text)? = event["message"] { message = text }
      let issue = "bgsim lint \(rule) at \(event.time): \(message)"
      issues.append(TestIssue(message: issue, attachments: Self.trace(trace, page: page(issue))))
    }
    return issues
  }

  static func trace(_ trace: TraceLog, page: String) -> [(name: String, content: String)] {
    [("trace.jsonl", trace.jsonLines), ("report.html", page)]
  }
}

extension Finding {
  /// The finding's run as a self-contained HTML page (the report `bgsim report` draws for a
  /// scenario): the rule and message, the timeline, each task's account, the lints and the
  /// trace. Attached to the test issue beside the trace and the replay scenario.
  public var reportPage: String {
    let faults = faults.isEmpty ? "no fault" : faults.map(\.description).joined(separator: "; ")
    return TracePage.render(
      title: "bgsim finding: \(rule)", verdict: "\(rule): \(faults)\n\(message)\nreplay: \(replayCall)",
      seed: seed, events: trace, wastedInCreationOrder: bytesWastedInCreationOrder)
  }
}
