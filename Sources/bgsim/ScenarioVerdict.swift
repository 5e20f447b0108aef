import Foundation
import SafeOutput
import ScenarioKit
import SimReport

/// What `bgsim check` found for one scenario file: everything the text, JSON, GitHub and JUnit
/// outputs need, computed once.
struct ScenarioVerdict {
  enum Status: String {
    case passed, failed
    /// The file is not a valid scenario, or an entry of its timeline could not be played (exit 2).
    case invalid
  }

  var file: String
  /// The scenario's name, or the file's name when it could not be read.
  var name: String
  var status: Status
  /// Simulated time at the end of the run; nil when the scenario was not run.
  var simulated: String?
  var wallSeconds: Double = 0
  var expectations: [ExpectationResult] = []
  var problems: [LocatedProblem] = []

  /// Loads and runs `file`; compares its trace with the golden trace beside it, or writes the
  /// golden trace when `updateGolden` (returning the path it could not write, if any).
  static func check(file: String, updateGolden: Bool) -> (ScenarioVerdict, unwritable: FileWriteError?) {
    let stem = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
    let scenario: Scenario
    do {
      scenario = try ScenarioLoader.load(path: file)
    } catch {
      let verdict = ScenarioVerdict(
        file: file, name: stem, status: .invalid, simulated: nil,
        problems: error.problems.map(LocatedProblem.init))
      return (verdict, nil)
    }
    let (result, wall) = ProcessMetrics.wallSeconds { ScenarioRunner.run(scenario) }
    var verdict = ScenarioVerdict(
      file: file, name: scenario.name, status: .passed, simulated: result.endTime.sinceStart.readable,
      wallSeconds: wall, expectations: result.expectations)
    let locator = JSONLocator(file: file)
    if let error = result.runError {
      verdict.problems.append(runProblem(error, file: file, locator: locator))
    }
    for expectation in result.expectations where !expectation.passed {
      verdict.problems.append(expectationProblem(expectation, file: file, locator: locator))
    }
    let golden = GoldenTrace.path(forScenario: file)
    let trace = result.trace.jsonLines
    var unwritable: FileWriteError?
    if updateGolden {
      // Atomic: a full disk leaves the old golden trace whole, never a truncated one.
      do throws(FileWriteError) {
        try AtomicFile.write(trace, to: golden)
      } catch {
        unwritable = error
      }
    } else if let expected = try? String(contentsOfFile: golden, encoding: .utf8),
      let divergence = GoldenTrace.compare(golden: expected, actual: trace)
    {
      let lines = divergence.description.split(separator: "\n").map(String.init)
      verdict.problems.append(
        LocatedProblem(
          file: golden, line: divergence.line, column: 1, path: "",
          message: lines.first ?? "golden trace differs",
          details: lines.dropFirst().map { $0.trimmingPrefixSpaces() }
            + ["(rerun with --update-golden if the change is intended)"]))
    }
    if result.runError != nil {
      verdict.status = .invalid
    } else if !verdict.problems.isEmpty {
      verdict.status = .failed
    }
    return (verdict, unwritable)
  }

  /// A failed expectation, located at its entry in `expect`.
  static func expectationProblem(_ e: ExpectationResult, file: String, locator: JSONLocator) -> LocatedProblem
  {
    let position = locator.position(of: e.path)
    var details = ["instead: \(e.found)"]
    if !e.nearby.isEmpty {
      details.append("nearest trace lines:")
      details += TimelineText.render(e.nearby).split(separator: "\n").map { "  " + $0 }
    }
    return LocatedProblem(
      file: file, line: position?.line, column: position?.column, path: e.path, message: e.expected,
      details: details)
  }

  /// A timeline entry that could not be played: the runner's `FILE: path: message`, located.
  static func runProblem(_ error: String, file: String, locator: JSONLocator) -> LocatedProblem {
    var rest = Substring(error)
    if rest.hasPrefix(file + ": ") { rest = rest.dropFirst(file.count + 2) }
    var path = ""
    if let colon = rest.range(of: ": "), !rest[..<colon.lowerBound].contains(" ") {
      path = String(rest[..<colon.lowerBound])
      rest = rest[colon.upperBound...]
    }
    let position = path.isEmpty ? nil : locator.position(of: path)
    return LocatedProblem(
      file: file, line: position?.line, column: position?.column, path: path, message: String(rest))
  }
}

extension String {
  func trimmingTrailingNewlines() -> String {
    var s = self
    while s.hasSuffix("\n") { s.removeLast() }
    return s
  }

  func trimmingPrefixSpaces() -> String { String(drop { $0 == " " }) }
}
