import ScenarioKit
import SimKernel

/// The index page of a report directory: one row per scenario, linking its page.
public enum ReportIndex {
  /// One row of the index.
  public struct Entry: Sendable {
    public var name: String
    public var description: String
    public var passed: Bool
    /// Simulated time when the run ended.
    public var simulatedTime: SimTime
    /// The page's address relative to the index (`relaunch.html`).
    public var link: String
    /// The scenario file, shown for finding the source.
    public var file: String

    public init(
      name: String, description: String, passed: Bool, simulatedTime: SimTime, link: String, file: String
    ) {
      self.name = name
      self.description = description
      self.passed = passed
      self.simulatedTime = simulatedTime
      self.link = link
      self.file = file
    }
  }

  /// The page, rows in the order given; the summary line counts passes and failures.
  public static func render(_ entries: [Entry], title: String = "bgsim scenarios") -> String {
    let failed = entries.filter { !$0.passed }.count
    var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    out += "<title>\(esc(title))</title>\n<style>\n\(ReportStyle.css)</style>\n</head>\n<body>\n"
    out += "<h1>\(esc(title))</h1>\n"
    out += "<p class=\"meta\" id=\"summary\">\(entries.count - failed) passed, \(failed) failed</p>\n"
    out += "<table class=\"index\">\n<tr><th>scenario</th><th>result</th><th>simulated time</th>"
    out += "<th>description</th><th>file</th></tr>\n"
    for entry in entries {
      out += "<tr><td><a href=\"\(esc(entry.link))\">\(esc(entry.name))</a></td>"
      out += entry.passed ? "<td class=\"ok\">pass</td>" : "<td class=\"bad\">FAIL</td>"
      out += "<td>\(entry.simulatedTime.sinceStart.readable)</td><td>\(esc(entry.description))</td>"
      out += "<td><code>\(esc(entry.file))</code></td></tr>\n"
    }
    out += "</table>\n</body>\n</html>\n"
    return out
  }

  private static func esc(_ text: String) -> String { HTMLText.escape(text) }
}
