import ScenarioKit
import SimKernel

/// A run that no scenario file describes, as a self-contained page like `HTMLReport`'s: an
/// exploration's finding or a Swift test's simulation, attached to the test issue that names it.
/// In place of a scenario's expectations it shows the verdict the test recorded (the finding's
/// rule and message, a lint); the timeline, the task accounts, the lints and the trace are the
/// scenario page's. Byte-identical for the same run: nothing depends on the clock or hash order.
public enum TracePage {
  /// Renders the page.
  ///
  /// - Parameters:
  ///   - title: the heading (a finding's rule, the test's name).
  ///   - verdict: what the test recorded, shown first; may span lines.
  ///   - seed: the run's seed.
  ///   - events: the run's trace.
  ///   - endTime: when the run ended (closes what was still open); the last event's time by default.
  ///   - wasted: bytes each task threw away, by task name (the trace does not carry them).
  ///   - wastedInCreationOrder: each task's own, in the order the tasks were created; read
  ///     before `wasted`, which sums the tasks of one name.
  public static func render(
    title: String, verdict: String, seed: UInt64, events: [TraceEvent], endTime: SimTime? = nil,
    wasted: [String: Int64] = [:], wastedInCreationOrder: [Int64] = []
  ) -> String {
    let end = endTime ?? events.last?.time ?? .zero
    let model = TimelineModel(events: events, end: end)
    let reasons = Set(model.tasks.flatMap(\.segments).filter { $0.phase == "waiting" }.compactMap(\.reason))
    var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    out +=
      "<title>\(esc(title)) — bgsim report</title>\n<style>\n\(ReportStyle.css)</style>\n</head>\n<body>\n"
    out += "<h1>\(esc(title))<span class=\"badge badge-fail\">FAIL</span></h1>\n"
    out += "<p class=\"meta\">seed \(seed) · simulated time \(end.sinceStart.readable) · "
    out += "\(events.count) trace events</p>\n"
    out += "<div class=\"error\" id=\"verdict\"><pre>\(esc(verdict))</pre></div>\n"
    out += ReportStyle.legend(waitingReasons: reasons)
    let accounts = TaskAccounts.compute(
      events, endTime: end, wastedInCreationOrder: wastedInCreationOrder, byName: wasted)
    out += HTMLReport.timelines(model, accounts: accounts)
    out += AccountTable.render(accounts)
    out += HTMLReport.lints(events)
    out += "<h2>Trace</h2>\n<details><summary>\(events.count) events</summary>\n<pre>"
    out += esc(TimelineText.render(events))
    out += "</pre>\n</details>\n</body>\n</html>\n"
    return out
  }

  private static func esc(_ text: String) -> String { HTMLText.escape(text) }
}
