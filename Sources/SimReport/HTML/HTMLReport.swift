import ScenarioKit
import SimKernel
import TransferEngine

/// One scenario's run as a self-contained HTML page: a header, a legend, the SVG timeline, the
/// expectation verdicts, the lints, the run error, and the full trace folded away.
///
/// The page has no external assets and needs no JavaScript (CSS and SVG are inline; tooltips
/// are SVG `<title>`s), so it can be attached to a bug or opened from CI artefacts as is.
/// The same run always gives byte-identical HTML: nothing depends on the clock, the locale or
/// hash order.
public enum HTMLReport {
  /// Renders the page.
  ///
  /// - Parameters:
  ///   - result: the run; its trace, verdicts and end time are drawn.
  ///   - name: the scenario's name; defaults to `result.scenario.name`.
  ///   - description: defaults to `result.scenario.description`.
  ///   - file: the scenario file shown in the header; defaults to `result.scenario.file`.
  ///   - indexLink: where the "all scenarios" link points, or nil for no link.
  public static func render(
    _ result: RunResult, name: String? = nil, description: String? = nil, file: String? = nil,
    indexLink: String? = "index.html"
  ) -> String {
    let name = name ?? result.scenario.name
    let description = description ?? result.scenario.description
    let file = file ?? result.scenario.file
    let events = result.trace.events
    let model = TimelineModel(events: events, end: result.endTime)
    let reasons = Set(model.tasks.flatMap(\.segments).filter { $0.phase == "waiting" }.compactMap(\.reason))

    var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    out +=
      "<title>\(esc(name)) — bgsim report</title>\n<style>\n\(ReportStyle.css)</style>\n</head>\n<body>\n"
    if let indexLink { out += "<p class=\"meta\"><a href=\"\(esc(indexLink))\">← all scenarios</a></p>\n" }
    out += "<h1>\(esc(name))<span class=\"badge badge-\(result.passed ? "pass" : "fail")\">"
    out += "\(result.passed ? "PASS" : "FAIL")</span></h1>\n"
    out += "<p class=\"meta\"><code>\(esc(file))</code> · seed \(result.seed) · simulated time "
    out += "\(result.endTime) · \(result.trace.count) trace events</p>\n"
    if !description.isEmpty { out += "<p class=\"description\">\(esc(description))</p>\n" }
    if let error = result.runError {
      out += "<p class=\"error\" id=\"run-error\"><strong>Run error:</strong> \(esc(error))</p>\n"
    }
    out += ReportStyle.legend(waitingReasons: reasons)
    out += "<div class=\"scroll\">\n\(TimelineSVG(model: model).render())</div>\n"
    out += "<p class=\"meta\">The time axis is stretched around events: read durations from the tick "
    out += "labels, not from lengths. Hover a bar for its details.</p>\n"
    out += expectations(result.expectations)
    out += lints(events)
    out += "<h2>Trace</h2>\n<details><summary>\(result.trace.count) events</summary>\n<pre>"
    out += esc(TimelineText.render(events))
    out += "</pre>\n</details>\n</body>\n</html>\n"
    return out
  }

  /// The `expect` verdicts: what was expected and, for a failure, what was found.
  static func expectations(_ results: [ExpectationResult]) -> String {
    var out = "<h2>Expectations</h2>\n"
    guard !results.isEmpty else { return out + "<p class=\"meta\">This scenario expects nothing.</p>\n" }
    out += "<table class=\"expectations\">\n<tr><th></th><th>where</th><th>expected</th><th>found</th></tr>\n"
    for result in results {
      let verdict = result.passed ? "<td class=\"ok\">ok</td>" : "<td class=\"bad\">FAIL</td>"
      out +=
        "<tr class=\"\(result.passed ? "ok" : "fail")\">\(verdict)<td><code>\(esc(result.path))</code></td>"
      out += "<td>\(esc(result.expected))</td><td>\(esc(result.found))</td></tr>\n"
    }
    return out + "</table>\n"
  }

  /// Every `lint` of the run: when, which rule, and its message.
  static func lints(_ events: [TraceEvent]) -> String {
    var out = "<h2>Lints</h2>\n"
    let lints = events.filter { $0.is(.lint) }
    guard !lints.isEmpty else { return out + "<p class=\"meta\">The app broke no documented rule.</p>\n" }
    out += "<table class=\"lints\">\n<tr><th>at</th><th>rule</th><th>message</th></tr>\n"
    for lint in lints {
      out += "<tr><td>\(lint.time)</td><td><code>\(esc(lint["rule"]?.description ?? ""))</code></td>"
      out += "<td>\(esc(lint["message"]?.description ?? ""))</td></tr>\n"
    }
    return out + "</table>\n"
  }

  private static func esc(_ text: String) -> String { HTMLText.escape(text) }
}
