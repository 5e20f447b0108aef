import BgsimFoundation
import ExplorationKit

/// What a test runner records for a report, a simulation or a scenario run: one issue each,
/// with the files worth attaching. Shared by the Swift Testing and XCTest helpers.
struct TestIssue {
  var message: String
  /// (file name, content): the trace as JSON Lines, the replay scenario.
  var attachments: [(name: String, content: String)]

  static func issues(_ report: ExplorationReport) -> [TestIssue] {
    report.findings.enumerated().map { index, finding in
      let prefix = "finding-\(index + 1)-\(finding.rule)"
      return TestIssue(
        message: "bgsim exploration: " + finding.description,
        attachments: [
          ("\(prefix)-trace.jsonl", finding.trace.map { $0.jsonLine + "\n" }.joined()),
          ("\(prefix)-replay.json", finding.replayScenario),
        ])
    }
  }

  /// Each lint the simulation traced (once per rule), and an invariant it broke.
  static func issues(_ sim: Simulation) -> [TestIssue] {
    var result = lintIssues(sim.trace)
    if let violation = sim.invariantViolation {
      result.append(TestIssue(message: "bgsim invariant broken: \(violation)", attachments: trace(sim.trace)))
    }
    return result
  }

  /// A scenario run's failed expectations, its run error and its lints.
  static func issues(_ result: RunResult) -> [TestIssue] {
    var issues: [TestIssue] = []
    if let error = result.runError {
      issues.append(TestIssue(message: "bgsim run error: \(error)", attachments: trace(result.trace)))
    }
    for expectation in result.failedExpectations {
      issues.append(
        TestIssue(
          message: "bgsim expectation failed in \(result.scenario.file): \(expectation)",
          attachments: trace(result.trace)))
    }
    if let violation = result.invariantViolation {
      issues.append(
        TestIssue(message: "bgsim invariant broken: \(violation)", attachments: trace(result.trace)))
    }
    return issues + lintIssues(result.trace)
  }

  static func lintIssues(_ trace: TraceLog) -> [TestIssue] {
    var seen = Set<String>()
    var issues: [TestIssue] = []
    for event in trace.events where event.kind == "lint" {
      guard case .string(let rule)? = event["rule"], seen.insert(rule).inserted else { continue }
      var message = rule
      if case .string(let text)? = event["message"] { message = text }
      issues.append(
        TestIssue(message: "bgsim lint \(rule) at \(event.time): \(message)", attachments: Self.trace(trace)))
    }
    return issues
  }

  static func trace(_ trace: TraceLog) -> [(name: String, content: String)] {
    [("trace.jsonl", trace.jsonLines)]
  }
}
