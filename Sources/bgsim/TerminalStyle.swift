import Foundation

/// Colour for people at a terminal: `ok` green, `FAIL` red. None when standard output is not a
/// terminal (files, pipes, CI logs read by programs) or `NO_COLOR` is set (no-color.org);
/// `CLICOLOR_FORCE=1` forces it, for tools that render ANSI.
enum TerminalStyle {
  static let enabled: Bool = {
    let environment = ProcessInfo.processInfo.environment
    if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
    if let force = environment["CLICOLOR_FORCE"], !force.isEmpty, force != "0" { return true }
    return isatty(STDOUT_FILENO) == 1 && environment["TERM"] != "dumb"
  }()

  static func ok(_ text: String = "ok") -> String { paint(text, code: "32") }
  static func fail(_ text: String = "FAIL") -> String { paint(text, code: "31") }

  static func paint(_ text: String, code: String) -> String {
    enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  /// Colours the verdict words at the start of expectation lines (`  ok    expect[0]: ...`).
  static func verdicts(_ text: String) -> String {
    guard enabled else { return text }
    return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      if line.hasPrefix("  ok    ") { return "  " + ok() + String(line.dropFirst(4)) }
      if line.hasPrefix("  FAIL  ") { return "  " + fail() + String(line.dropFirst(6)) }
      return String(line)
    }.joined(separator: "\n")
  }
}
