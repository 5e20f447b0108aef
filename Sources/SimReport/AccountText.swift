import SafeOutput
import ScenarioKit
import SimKernel

/// The task accounts as text: the table `bgsim run` ends with and `bgsim explain`'s one-task story.
public enum AccountText {
  /// How many tasks `run` lists before it counts the rest.
  public static let runLimit = 20

  /// Slowest first, at most `limit` rows, then how many more there are.
  public static func table(_ accounts: [TaskAccount], limit: Int = runLimit) -> String {
    guard !accounts.isEmpty else { return "" }
    let shown = Array(TaskAccounts.slowestFirst(accounts).prefix(max(0, limit)))
    let header = [
      "task", "outcome", "took", "created", "started", "ended", "delivered", "where the time went",
    ]
    var rows = [header]
    for a in shown {
      rows.append([
        TerminalText.escape(a.task), a.outcome.rawValue, a.total.readable, time(a.created),
        time(a.firstStarted), time(a.ended),
        time(a.delivered), whereTheTimeWent(a),
      ])
    }
    let widths = (0..<header.count - 1).map { column in rows.map { $0[column].count }.max() ?? 0 }
    var out = "Why each task took as long as it did (slowest first; bgsim explain FILE TASK for one):\n"
    for row in rows {
      var line = "  "
      for (column, cell) in row.enumerated() {
        if column < widths.count {
          line += cell + String(repeating: " ", count: widths[column] - cell.count) + "  "
        } else {
          line += cell
        }
      }
      out += line + "\n"
    }
    if accounts.count > shown.count {
      let more = accounts.count - shown.count
      out += "  ... and \(more) more task\(more == 1 ? "" : "s"), none slower than these\n"
    }
    return out
  }

  /// Every activity that took time, largest first, and the bytes thrown away.
  public static func whereTheTimeWent(_ account: TaskAccount) -> String {
    let missing = account.missingConditions
    var parts: [String] = []
    for (activity, time) in account.breakdown where time > .zero {
      var label = activity.label
      if activity == .waiting(.discretionary) && !missing.isEmpty {
        label += " (missing \(missing.joined(separator: ", ")))"
      }
      parts.append("\(label) \(time.readable)")
    }
    var text = parts.isEmpty ? "no time" : parts.joined(separator: ", ")
    if account.bytesWasted > 0 { text += "; wasted \(ByteText.readable(account.bytesWasted))" }
    return text
  }

  /// The account as a few lines for the report's hover tooltip: the same numbers as the table.
  public static func hover(_ account: TaskAccount) -> String {
    var out = "\(account.task): \(account.outcome.rawValue), took \(account.total.readable)\n"
    out += "created \(time(account.created)), first started \(time(account.firstStarted)), "
    out += "ended in the daemon \(time(account.ended)), delivered to the app \(time(account.delivered))\n"
    out += "where the time went: \(whereTheTimeWent(account))"
    return out
  }

  /// One task's account with the trace lines behind each interval (`bgsim explain`).
  public static func explain(_ account: TaskAccount, events: [TraceEvent]) -> String {
    var out =
      "Task \(TerminalText.escape(account.task)) (session \(TerminalText.escape(account.session))): \(account.outcome.rawValue)"
    out += ", took \(account.total.readable)\n"
    out += "  created        \(account.created.sinceStart.readable)\n"
    out += "  first started  \(time(account.firstStarted))\n"
    let ending = account.outcome == .unfinished ? "still unfinished at the end of the run" : "in the daemon"
    out += "  ended          \(time(account.ended)) (\(account.outcome.rawValue) \(ending))\n"
    let delivery =
      account.delivered == nil
      ? (account.outcome == .lost ? "never: a lost task's app is not told" : "not by the end of the run")
      : "delegate.didComplete"
    out += "  delivered      \(time(account.delivered)) (\(delivery))\n"
    if let bytes = account.bytes { out += "  bytes          \(ByteText.readable(bytes))\n" }
    out += "  wasted         \(ByteText.readable(account.bytesWasted))\n"
    out += "\nWhere the time went:\n"
    let breakdown = account.breakdown.filter { $0.time > .zero }
    let labelWidth = breakdown.map(\.activity.label.count).max() ?? 0
    let timeWidth = breakdown.map(\.time.readable.count).max() ?? 0
    for (activity, time) in breakdown {
      let label = activity.label + String(repeating: " ", count: labelWidth - activity.label.count)
      let text = String(repeating: " ", count: timeWidth - time.readable.count) + time.readable
      out += "  \(label)  \(text)\(share(time, of: account.total))\n"
    }
    if breakdown.isEmpty { out += "  nothing: every interval took no time\n" }
    out += "\nIntervals, each with the trace line that began it:\n"
    for interval in account.intervals {
      var line = "  \(interval.start.sinceStart.readable) to \(interval.end.sinceStart.readable)"
      line += " (\(interval.duration.readable))  \(interval.activity.label)"
      if !interval.detail.isEmpty { line += " [\(interval.detail)]" }
      out += line + "\n"
      out += indented(TimelineText.render([events[interval.opening]]))
    }
    if let last = account.intervals.last {
      if let closing = last.closing {
        out += "  \(last.end.sinceStart.readable)  end of the account\n"
        out += indented(TimelineText.render([events[closing]]))
      } else {
        out += "  \(last.end.sinceStart.readable)  end of the run\n"
      }
    }
    return out
  }

  private static func time(_ t: SimTime?) -> String { t?.sinceStart.readable ?? "-" }

  private static func time(_ t: SimTime) -> String { t.sinceStart.readable }

  private static func share(_ part: SimDuration, of whole: SimDuration) -> String {
    guard whole > .zero else { return "" }
    let tenths = Int((Double(part.nanoseconds) / Double(whole.nanoseconds) * 1000).rounded())
    return "  \(tenths / 10).\(tenths % 10)%"
  }

  private static func indented(_ text: String) -> String {
    text.split(separator: "\n").map { "      \($0)\n" }.joined()
  }
}

/// Byte counts for people: decimal units (1MB = 1,000,000 bytes) as the scenario format uses.
public enum ByteText {
  public static func readable(_ bytes: Int64) -> String {
    let units: [(Int64, String)] = [(1_000_000_000, "GB"), (1_000_000, "MB"), (1_000, "KB")]
    for (size, name) in units where bytes.magnitude >= size.magnitude {
      // Two decimals, exact, trailing zeros dropped.
      let hundredths = (bytes / (size / 100))
      let whole = hundredths / 100
      let fraction = (hundredths % 100).magnitude
      if fraction == 0 { return "\(whole)\(name)" }
      let digits = fraction % 10 == 0 ? "\(fraction / 10)" : (fraction < 10 ? "0\(fraction)" : "\(fraction)")
      return "\(whole).\(digits)\(name)"
    }
    return "\(bytes)B"
  }
}
