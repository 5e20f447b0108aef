import Foundation

/// The files of a sweep output directory, and merging shards' directories into one.
///
/// A whole sweep (or a merge) writes `sweep.json`, `runs.csv`, `summary.csv`, `summary.md` and
/// `chart-METRIC.svg` per charted metric; a shard writes only `sweep.json` and its rows of `runs.csv`.
public enum SweepOutput {
  /// The files for a manifest and its rows, by file name, in writing order.
  public static func files(manifest: SweepManifest, table: RunTable) -> [(name: String, text: String)] {
    var files = [("sweep.json", manifest.json), ("runs.csv", table.csv)]
    guard manifest.shard == nil else { return files }
    let summary = SweepSummary(manifest: manifest, table: table)
    files.append(("summary.csv", summary.csv))
    files.append(("summary.md", summary.markdown))
    for metric in manifest.charts {
      files.append(("chart-\(metric).svg", SweepChart.svg(summary, metric: metric)))
    }
    return files
  }

  /// Writes the files into `directory` (created if needed).
  public static func write(manifest: SweepManifest, table: RunTable, to directory: String) throws(SweepError)
  {
    do {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      for file in files(manifest: manifest, table: table) {
        try Data(file.text.utf8).write(to: URL(fileURLWithPath: directory).appendingPathComponent(file.name))
      }
    } catch {
      throw SweepError("cannot write the sweep into '\(directory)': \(error.localizedDescription)")
    }
  }

  /// Reads a sweep output directory (a shard's or a whole one).
  public static func read(_ directory: String) throws(SweepError) -> (SweepManifest, RunTable) {
    let base = URL(fileURLWithPath: directory)
    let manifestPath = base.appendingPathComponent("sweep.json").path
    let runsPath = base.appendingPathComponent("runs.csv").path
    guard let data = FileManager.default.contents(atPath: manifestPath) else {
      throw SweepError("\(directory): no sweep.json; expected a directory written by bgsim sweep --out")
    }
    let manifest = try SweepManifest.parse(data, file: manifestPath)
    guard let runs = FileManager.default.contents(atPath: runsPath) else {
      throw SweepError("\(runsPath): missing")
    }
    let table = try RunTable.parse(String(decoding: runs, as: UTF8.self), file: runsPath)
    return (manifest, table)
  }

  /// Merges shard outputs into the manifest and rows a single run of the whole grid gives.
  /// The directories may come in any order; every run must be present exactly once.
  public static func merge(_ directories: [String]) throws(SweepError) -> (SweepManifest, RunTable) {
    guard !directories.isEmpty else { throw SweepError("no directories to merge") }
    var merged: SweepManifest?
    var header: [String] = []
    var rows: [Int: [String]] = [:]
    for directory in directories {
      let (manifest, table) = try read(directory)
      var whole = manifest
      whole.shard = nil
      if let merged, merged != whole {
        throw SweepError(
          "\(directory) is from a different sweep than \(directories[0]) (scenario, parameters, seeds or charts differ)"
        )
      }
      if merged == nil { header = table.header }
      merged = whole
      guard table.header == header else { throw SweepError("\(directory)/runs.csv has different columns") }
      for row in table.rows {
        let run = Int(row[0])!
        guard (0..<whole.runs).contains(run) else {
          throw SweepError("\(directory)/runs.csv has run \(run), outside the grid's 0..<\(whole.runs)")
        }
        if rows.updateValue(row, forKey: run) != nil {
          throw SweepError("run \(run) appears twice (is a shard given twice?); last seen in \(directory)")
        }
      }
    }
    let manifest = merged!
    let missing = (0..<manifest.runs).filter { rows[$0] == nil }
    guard missing.isEmpty else {
      let list = missing.prefix(10).map(String.init).joined(separator: ", ")
      throw SweepError(
        "\(missing.count) of \(manifest.runs) runs are missing (runs \(list)\(missing.count > 10 ? ", ..." : "")); "
          + "is a shard's directory left out?")
    }
    return (manifest, RunTable(header: header, rows: (0..<manifest.runs).map { rows[$0]! }))
  }
}
