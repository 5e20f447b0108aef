import SimKernel

/// The rows of `runs.csv`: one per run, in run order, every cell as text.
///
/// Summaries are computed from these texts, never from the values before formatting, so a
/// merge of shards (which has only the files) writes exactly what a single run writes.
public struct RunTable: Hashable, Sendable {
  /// The numeric metric columns, in order; `lintRules` (text) comes after them.
  public static let metricColumns: [String] =
    [
      "tasks", "finished", "failed", "allDoneSeconds", "taskP50Seconds", "taskP95Seconds", "wakes",
      "backgroundLaunches", "backgroundResumes", "maxDelaySeconds", "bytesOnWire", "bytesWasted",
    ] + RunMetrics.deferralReasons.map { "deferred\($0.prefix(1).uppercased())\($0.dropFirst())Seconds" }
    + ["lints", "expectationsFailed", "endSeconds"]

  /// `run`, the swept keys, `seed`, the metric columns, `lintRules`.
  public var header: [String]
  /// Each row starts with its run index.
  public var rows: [[String]]

  public init(header: [String], rows: [[String]]) {
    self.header = header
    self.rows = rows
  }

  public static func header(parameters: [SweepParameter]) -> [String] {
    ["run"] + parameters.map(\.key) + ["seed"] + metricColumns + ["lintRules"]
  }

  /// One row: the run, its parameter values and seed, and its metrics formatted.
  public static func row(run: Int, values: [String], seed: UInt64, metrics m: RunMetrics) -> [String] {
    var cells = ["\(run)"] + values + ["\(seed)"]
    cells += ["\(m.tasks)", "\(m.finished)", "\(m.failed)"]
    cells += [m.allDone, m.taskP50, m.taskP95].map { $0.map(seconds) ?? "" }
    cells += ["\(m.wakes)", "\(m.backgroundLaunches)", "\(m.backgroundResumes)", seconds(m.maxDelay)]
    cells += ["\(m.bytesOnWire)", "\(m.bytesWasted)"]
    cells += m.deferred.map(seconds)
    cells += ["\(m.lints)", "\(m.expectationsFailed)", seconds(m.end), m.lintRules.joined(separator: " ")]
    return cells
  }

  /// Seconds with exactly three decimals, rounded half up, from integer nanoseconds (no floating point).
  public static func seconds(_ d: SimDuration) -> String {
    let negative = d.nanoseconds < 0
    let ms = (d.nanoseconds.magnitude + 500_000) / 1_000_000
    let frac = String(ms % 1000)
    return (negative ? "-" : "") + "\(ms / 1000)." + String(repeating: "0", count: 3 - frac.count) + frac
  }

  /// The table as CSV (RFC 4180 quoting, `\n` line ends, a final newline).
  public var csv: String { CSV.render([header] + rows) }

  /// Reads `runs.csv` back.
  public static func parse(_ text: String, file: String) throws(SweepError) -> RunTable {
    let records = try CSV.parse(text, file: file)
    guard let header = records.first, header.first == "run" else {
      throw SweepError("\(file): not a runs.csv written by bgsim sweep (its first column must be 'run')")
    }
    for (i, record) in records.enumerated().dropFirst()
    where record.count != header.count || Int(record[0]) == nil {
      throw SweepError(
        "\(file): line \(i + 1) has \(record.count) cells, expected \(header.count) starting with a run number"
      )
    }
    return RunTable(header: header, rows: Array(records.dropFirst()))
  }
}

/// Minimal RFC 4180 CSV.
enum CSV {
  static func render(_ records: [[String]]) -> String {
    var out = ""
    for record in records {
      out += record.map(quote).joined(separator: ",")
      out += "\n"
    }
    return out
  }

  static func quote(_ cell: String) -> String {
    guard cell.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return cell }
    return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  static func parse(_ text: String, file: String) throws(SweepError) -> [[String]] {
    var records: [[String]] = []
    var record: [String] = []
    var cell = ""
    var quoted = false
    var chars = Array(text).makeIterator()
    var pending: Character? = nil
    while let c = pending ?? chars.next() {
      pending = nil
      if quoted {
        if c == "\"" {
          if let d = chars.next() {
            if d == "\"" { cell.append("\"") } else { quoted = false; pending = d }
          } else {
            quoted = false
          }
        } else {
          cell.append(c)
        }
        continue
      }
      switch c {
      case "\"": quoted = true
      case ",":
        record.append(cell)
        cell = ""
      case "\n", "\r\n":
        record.append(cell)
        records.append(record)
        record = []
        cell = ""
      default: cell.append(c)
      }
    }
    if quoted { throw SweepError("\(file): a quoted cell is not closed") }
    if !cell.isEmpty || !record.isEmpty {
      record.append(cell)
      records.append(record)
    }
    return records
  }
}

extension String {
  fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
    split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}
