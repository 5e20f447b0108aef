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
    + ["challengeAnswerSeconds", "lints", "expectationsFailed", "endSeconds"]

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
    cells += m.deferred.map(seconds) + [seconds(m.challengeAnswer)]
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

  /// The metric columns that hold non-negative integers; the others hold seconds.
  static let integerColumns: Set<String> = [
    "tasks", "finished", "failed", "wakes", "backgroundLaunches", "backgroundResumes", "bytesOnWire",
    "bytesWasted", "lints", "expectationsFailed",
  ]
  /// Seconds columns that are empty when there is nothing to measure.
  static let optionalColumns: Set<String> = ["allDoneSeconds", "taskP50Seconds", "taskP95Seconds"]

  /// Whether `cell` is what `row` writes in metric column `name`: an integer, seconds with three
  /// decimals (or empty where allowed), or lint rule names separated by spaces.
  static func isValid(_ cell: String, metric name: String) -> Bool {
    let bytes = Array(cell.utf8)
    func digits(_ part: ArraySlice<UInt8>, max: Int) -> Bool {
      !part.isEmpty && part.count <= max && part.allSatisfy { (48...57).contains($0) }
    }
    if name == "lintRules" {
      return bytes.count <= 4096
        && bytes.allSatisfy {
          (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) || $0 == 32
        }
    }
    if integerColumns.contains(name) { return digits(bytes[...], max: 19) && Int64(cell) != nil }
    if bytes.isEmpty { return optionalColumns.contains(name) }
    guard let dot = bytes.firstIndex(of: 46) else { return false }
    return digits(bytes[..<dot], max: 15) && digits(bytes[(dot + 1)...], max: 3) && bytes.count - dot == 4
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

  /// The records of `bytes` with the line each starts on. Works on bytes, not characters, so
  /// a large file costs its size once.
  static func parse(_ bytes: [UInt8], file: String) throws(SweepError) -> [(line: Int, cells: [String])] {
    var records: [(line: Int, cells: [String])] = []
    var record: [String] = []
    var cell: [UInt8] = []
    var line = 1
    var recordLine = 1
    var quoted = false
    var quoteLine = 1
    var i = 0
    func endCell() {
      record.append(String(decoding: cell, as: UTF8.self))
      cell.removeAll(keepingCapacity: true)
    }
    while i < bytes.count {
      let c = bytes[i]
      i += 1
      if quoted {
        if c == 34 {
          if i < bytes.count, bytes[i] == 34 {
            cell.append(34)
            i += 1
          } else {
            quoted = false
          }
        } else {
          if c == 10 { line += 1 }
          cell.append(c)
        }
        continue
      }
      switch c {
      case 34:
        quoted = true
        quoteLine = line
      case 44: endCell()
      case 13 where i < bytes.count && bytes[i] == 10: continue
      case 10:
        endCell()
        records.append((recordLine, record))
        record = []
        line += 1
        recordLine = line
      default: cell.append(c)
      }
    }
    if quoted {
      throw SweepError("\(file): line \(quoteLine): a quoted cell is not closed; was the file cut short?")
    }
    if !cell.isEmpty || !record.isEmpty {
      endCell()
      records.append((recordLine, record))
    }
    return records
  }
}

extension String {
  fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
    split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}
