import ScenarioKit
import SimKernel
import TransferEngine

/// One scenario's run as a self-contained HTML page: a header, a legend, the SVG timeline on a
/// stretched and a linear axis (a CSS-only toggle), the task accounts, the expectation verdicts
/// with a failure's nearest trace lines, the lints, the run error, and the full trace folded away.
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
    out += "\(result.endTime.sinceStart.readable) · \(result.trace.count) trace events</p>\n"
    if !description.isEmpty { out += "<p class=\"description\">\(esc(description))</p>\n" }
    if let error = result.runError {
      out += "<p class=\"error\" id=\"run-error\"><strong>Run error:</strong> \(esc(error))</p>\n"
    }
    out += ReportStyle.legend(waitingReasons: reasons)
    let accounts = TaskAccounts.compute(result)
    out += timelines(model, accounts: accounts)
    out += AccountTable.render(accounts)
    out += expectations(result.expectations)
    out += lints(events)
    out += "<h2>Trace</h2>\n<details><summary>\(result.trace.count) events</summary>\n<pre>"
    out += esc(TimelineText.render(events))
    out += "</pre>\n</details>\n</body>\n</html>\n"
    return out
  }

  /// The timeline twice, stretched (shown) and linear (hidden), with a radio toggle that is pure
  /// CSS (`:checked`): the default view needs no script, and the page stays script-free.
  static func timelines(_ model: TimelineModel, accounts: [TaskAccount]) -> String {
    let hover = Dictionary(
      accounts.map { (WrittenKey($0.task), AccountText.hover($0)) }, uniquingKeysWith: { a, _ in a })
    var out = "<div class=\"timelines\">\n<span>Time axis:</span>\n"
    out += "<input type=\"radio\" name=\"axis\" id=\"axis-stretched\" checked>"
    out += "<label for=\"axis-stretched\">stretched around events</label>\n"
    out += "<input type=\"radio\" name=\"axis\" id=\"axis-linear\">"
    out += "<label for=\"axis-linear\">linear</label>\n"
    for axis in TimelineSVG.Axis.allCases {
      let svg = TimelineSVG(model: model, axis: axis, accounts: hover).render()
      out += "<div class=\"scroll timeline-\(axis.rawValue)\">\n\(svg)"
      switch axis {
      case .stretched:
        out += "<p class=\"meta\">The stretched axis widens bursts of events and narrows quiet stretches: "
        out += "read durations from the tick labels, not from lengths, or switch to the linear axis.</p>\n"
      case .linear:
        out += "<p class=\"meta\">The linear axis gives equal time equal width: lengths compare truly, "
        out += "but a burst of events may be narrower than a pixel.</p>\n"
      }
      out += "</div>\n"
    }
    out += "<p class=\"meta\">Hover a bar for its details and the task's account.</p>\n</div>\n"
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
      if !result.passed && !result.nearby.isEmpty {
        // The same lines `bgsim run` and `check` print under a failure.
        out += "<tr class=\"fail nearby\"><td></td><td colspan=\"3\">nearest trace lines:"
        out += "<pre class=\"nearby\">\(esc(TimelineText.render(result.nearby)))</pre></td></tr>\n"
      }
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
