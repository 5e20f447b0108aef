import SafeOutput
import ScenarioKit
import SimKernel

/// The readable text timeline `bgsim run` prints: simulated time, lane, event, in aligned columns.
///
///         0s  network   change interface=wifi down=50Mbps ...
///        1h  task      started book session=MySession taskIdentifier=1
public enum TimelineText {
  /// The lane an event belongs to: the part of its kind before the dot (`task`, `app`, ...).
  static func lane(_ event: TraceEvent) -> String {
    let kind = event.kind
    guard let dot = kind.firstIndex(of: ".") else { return kind }
    return String(kind[..<dot])
  }

  /// One line per event; `task=` comes first after the verb so bars of one task read down a column.
  /// Names, URLs and messages are escaped (`TerminalText`): a value can never start a new line.
  public static func render(_ events: [TraceEvent]) -> String {
    let times = events.map { $0.time.sinceStart.readable }
    let timeWidth = times.map(\.count).max() ?? 2
    let laneWidth = max(5, events.map { lane($0).count }.max() ?? 5)
    var out = ""
    for (event, time) in zip(events, times) {
      let lane = lane(event)
      var verb = TerminalText.escape(event.kind)
      if let dot = verb.firstIndex(of: ".") { verb = String(verb[verb.index(after: dot)...]) }
      var parts = [verb]
      if let task = event["task"] { parts.append(TerminalText.escape(task.description)) }
      for field in event.fields where field.key != "task" {
        let value = TerminalText.escape(field.value.description)
        parts.append(field.key == "message" ? "— \(value)" : "\(field.key)=\(value)")
      }
      out += String(repeating: " ", count: timeWidth - time.count) + time + "  "
      out += lane + String(repeating: " ", count: laneWidth - lane.count) + "  "
      out += parts.joined(separator: " ") + "\n"
    }
    return out
  }

  /// The expectation verdicts: one line each, and for a failure what happened and the nearby trace.
  public static func render(_ results: [ExpectationResult]) -> String {
    var out = ""
    for result in results {
      let expected = TerminalText.escape(result.expected)
      out += (result.passed ? "  ok    " : "  FAIL  ") + "\(result.path): \(expected)\n"
      guard !result.passed else { continue }
      out += "        instead: \(TerminalText.escape(result.found))\n"
      if !result.nearby.isEmpty {
        out += "        nearest trace lines:\n"
        for line in render(result.nearby).split(separator: "\n") { out += "          \(line)\n" }
      }
    }
    return out
  }
}
