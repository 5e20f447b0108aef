import Foundation
import SimKernel

/// Per grid point: the mean and nearest-rank p50/p95 over seeds of every metric of `runs.csv`.
public struct SweepSummary: Sendable {
  /// Mean, p50 and p95 of one metric at one point, over the runs that have a value.
  public struct Stats: Hashable, Sendable {
    public var mean: Double
    public var p50: Double
    public var p95: Double
  }

  /// One grid point.
  public struct Point: Sendable {
    public var index: Int
    public var values: [String]
    public var runs: Int
    /// By `RunTable.metricColumns` index; nil when no run had a value (`allDoneSeconds`).
    public var stats: [Stats?]
    /// Runs whose every task ended.
    public var allDoneRuns: Int
  }

  public var manifest: SweepManifest
  public var points: [Point]

  /// Summarises the table's texts (runs in order, every point's runs present).
  public init(manifest: SweepManifest, table: RunTable) {
    self.manifest = manifest
    let seedCount = max(1, manifest.runs / max(1, manifest.pointCount))
    let columns = RunTable.metricColumns.map { name in table.header.firstIndex(of: name) }
    let keyCount = manifest.parameters.count
    var points: [Point] = []
    var start = 0
    while start < table.rows.count {
      let index = (Int(table.rows[start][0]) ?? 0) / seedCount
      var end = start
      while end < table.rows.count, (Int(table.rows[end][0]) ?? 0) / seedCount == index { end += 1 }
      let rows = table.rows[start..<end]
      let stats: [Stats?] = columns.map { column in
        guard let column else { return nil }
        return Self.stats(rows.compactMap { Double($0[column]) })
      }
      let allDone =
        columns[RunTable.metricColumns.firstIndex(of: "allDoneSeconds")!]
        .map { c in rows.filter { !$0[c].isEmpty }.count } ?? 0
      points.append(
        Point(
          index: index, values: Array(rows.first![1..<(1 + keyCount)]), runs: rows.count, stats: stats,
          allDoneRuns: allDone))
      start = end
    }
    self.points = points
  }

  static func stats(_ values: [Double]) -> Stats? {
    guard !values.isEmpty else { return nil }
    var sum = 0.0
    for v in values { sum += v }
    let sorted = values.sorted()
    return Stats(
      mean: sum / Double(values.count), p50: RunMetrics.percentile(sorted, 0.5)!,
      p95: RunMetrics.percentile(sorted, 0.95)!)
  }

  /// Fixed three decimals, so outputs compare byte for byte.
  static func number(_ x: Double) -> String { String(format: "%.3f", x) }

  /// `summary.csv`: point, the swept values, runs, allDoneRuns, then mean/p50/p95 of each metric.
  public var csv: String {
    var header = ["point"] + manifest.parameters.map(\.key) + ["runs", "allDoneRuns"]
    for name in RunTable.metricColumns { header += ["\(name)Mean", "\(name)P50", "\(name)P95"] }
    let rows = points.map { p in
      var cells = ["\(p.index)"] + p.values + ["\(p.runs)", "\(p.allDoneRuns)"]
      for s in p.stats {
        cells += s.map { [Self.number($0.mean), Self.number($0.p50), Self.number($0.p95)] } ?? ["", "", ""]
      }
      return cells
    }
    return CSV.render([header] + rows)
  }

  func stats(_ point: Point, _ metric: String) -> Stats? {
    RunTable.metricColumns.firstIndex(of: metric).flatMap { point.stats[$0] }
  }

  /// A duration in seconds as the format writes durations, to the second (`1h2m3s`).
  static func duration(_ seconds: Double) -> String {
    SimDuration.seconds(rounding: seconds.rounded()).formatted
  }

  /// `summary.md`: what was swept and a table of the headline metrics per point.
  public var markdown: String {
    var out = "# Sweep of \(manifest.name)\n\n"
    out +=
      "Scenario `\(manifest.scenario)`; seeds \(manifest.seeds) (\(manifest.runs / max(1, manifest.pointCount)) "
    out += "per point); \(manifest.pointCount) grid points, \(manifest.runs) runs.\n\n"
    for p in manifest.parameters { out += "- `\(p.key)`: \(p.values.joined(separator: ", "))\n" }
    out += "\nMeans over seeds (p95 in brackets). *All done*: time until every task ended, over the runs "
    out +=
      "where every task did (their count in *done*). *Task*: per-task time from creation to finish (p50). "
    out += "*Deferred by rate limiter*: task-time spent waiting for the rate limiter, summed over tasks. "
    out += "*Wasted*: bytes thrown away by restarts from zero.\n\n"
    let keys = manifest.parameters.map { "`\($0.key)`" }
    let columns = [
      "done", "all done", "task p50", "wakes", "bg launches", "max delay", "deferred by rate limiter",
      "on wire", "wasted", "lints",
    ]
    out += "| " + (keys + columns).joined(separator: " | ") + " |\n"
    out +=
      "|" + String(repeating: "---|", count: keys.count) + String(repeating: "---:|", count: columns.count)
      + "\n"
    for p in points {
      func d(_ m: String, p95: Bool = true) -> String {
        guard let s = stats(p, m) else { return "-" }
        return Self.duration(s.mean) + (p95 ? " (\(Self.duration(s.p95)))" : "")
      }
      func n(_ m: String, p95: Bool = true) -> String {
        guard let s = stats(p, m) else { return "-" }
        return String(format: "%.1f", s.mean) + (p95 ? String(format: " (%.0f)", s.p95) : "")
      }
      func mb(_ m: String) -> String {
        guard let s = stats(p, m) else { return "-" }
        return String(format: "%.1f MB", s.mean / 1e6)
      }
      let cells = [
        "\(p.allDoneRuns)/\(p.runs)", d("allDoneSeconds"), d("taskP50Seconds"), n("wakes"),
        n("backgroundLaunches"), d("maxDelaySeconds", p95: false), d("deferredRateLimiterSeconds"),
        mb("bytesOnWire"), mb("bytesWasted"), n("lints", p95: false),
      ]
      out += "| " + (p.values.map { "`\($0)`" } + cells).joined(separator: " | ") + " |\n"
    }
    return out
  }
}
