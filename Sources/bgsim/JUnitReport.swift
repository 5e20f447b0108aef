import Foundation
import SimKernel

/// `check --junit FILE`: the verdicts as JUnit XML in the shape pytest's `--junitxml` writes, which
/// Jenkins, GitLab, Bitrise, Xcode Cloud and GitHub test reporters all read. One `testcase` per
/// scenario (classname: its folder, dotted; name: the scenario's name); a failed expectation or
/// golden trace is a `failure`, an invalid or unplayable scenario an `error`; every expectation's
/// verdict is in the case's `system-out`.
enum JUnitReport {
  static func xml(_ verdicts: [ScenarioVerdict]) -> String {
    let failures = verdicts.filter { $0.status == .failed }.count
    let errors = verdicts.filter { $0.status == .invalid }.count
    let time = seconds(verdicts.reduce(0) { $0 + $1.wallSeconds })
    let counts = "errors=\"\(errors)\" failures=\"\(failures)\" skipped=\"0\" tests=\"\(verdicts.count)\""
    var out = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
    out += "<testsuites name=\"bgsim check\" \(counts) time=\"\(time)\">\n"
    out += "  <testsuite name=\"bgsim check\" \(counts) time=\"\(time)\">\n"
    for verdict in verdicts { out += testcase(verdict) }
    out += "  </testsuite>\n</testsuites>\n"
    return out
  }

  static func testcase(_ v: ScenarioVerdict) -> String {
    let folder = classname(v.file)
    var out =
      "    <testcase classname=\"\(escape(folder))\" name=\"\(escape(v.name))\" file=\"\(escape(v.file))\" "
      + "time=\"\(seconds(v.wallSeconds))\""
    let verdictLines = v.expectations.map { ($0.passed ? "ok    " : "FAIL  ") + "\($0.path): \($0.expected)" }
    if v.status == .passed && verdictLines.isEmpty { return out + " />\n" }
    out += ">\n"
    if v.status != .passed {
      let element = v.status == .invalid ? "error" : "failure"
      let type = v.status == .invalid ? "invalidScenario" : "expectationFailed"
      let message = v.problems.first.map { $0.path.isEmpty ? $0.message : "\($0.path): \($0.message)" } ?? ""
      let body = v.problems.flatMap { OutputFormat.text.lines($0) }.joined(separator: "\n")
      out +=
        "      <\(element) message=\"\(escape(message))\" type=\"\(type)\">\(escape(body, attribute: false))</\(element)>\n"
    }
    if !verdictLines.isEmpty {
      out +=
        "      <system-out>\(escape(verdictLines.joined(separator: "\n"), attribute: false))</system-out>\n"
    }
    return out + "    </testcase>\n"
  }

  /// `Scenarios/sub/x.json` -> `Scenarios.sub`, the dotted classname pytest gives a module.
  static func classname(_ file: String) -> String {
    let parts = file.split(separator: "/").dropLast().filter { $0 != "." && $0 != ".." }
    return parts.isEmpty ? "scenarios" : parts.joined(separator: ".")
  }

  static func seconds(_ s: Double) -> String { String(format: "%.3f", s) }

  /// Escapes for XML text and attribute values; characters XML 1.0 cannot hold at all (most
  /// control characters) become U+FFFD so the file always parses.
  static func escape(_ s: String, attribute: Bool = true) -> String {
    var out = ""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      case "\n", "\t", "\r":
        if attribute { out += "&#\(scalar.value);" } else { out.unicodeScalars.append(scalar) }
      case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
        out += "\u{FFFD}"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
