/// The files of a sweep output directory, and how they are written.
///
/// A whole sweep (or a merge) writes `sweep.json`, `runs.csv`, `summary.csv`, `summary.md` and
/// `chart-METRIC.svg` per charted metric; a shard writes only `sweep.json` and its rows of
/// `runs.csv`. `sweep.json` is the mark of a finished output: it is removed before anything
/// else is written and written last, each file through a temporary file and a rename, so an
/// interrupted or failed sweep never leaves a set that looks complete.
public enum SweepOutput {
  /// The files for a manifest and its rows, by file name, in writing order (`sweep.json` last).
  public static func files(manifest: SweepManifest, table: RunTable) -> [(name: String, text: String)] {
    var files = [("runs.csv", table.csv)]
    if manifest.shard == nil {
      let summary = SweepSummary(manifest: manifest, table: table)
      files.append(("summary.csv", summary.csv))
      files.append(("summary.md", summary.markdown))
      for metric in manifest.charts {
        files.append(("chart-\(metric).svg", SweepChart.svg(summary, metric: metric)))
      }
    }
    files.append(("sweep.json", manifest.json))
    return files
  }

  /// Every file name a sweep, a shard or a merge may write or remove in its output folder.
  public static var fileNames: [String] {
    ["runs.csv", "summary.csv", "summary.md", "sweep.json"] + RunTable.metricColumns.map { "chart-\($0).svg" }
  }

  /// Makes `directory` ready before a sweep spends its time: creates it, and removes the
  /// `sweep.json`, summaries and charts an earlier sweep left there, so that a failure from now
  /// on leaves a directory `sweep-merge` refuses instead of an old set beside new rows.
  public static func prepare(_ directory: String) throws(SweepError) {
    try SweepFiles.createFolder(directory)
    try SweepFiles.remove(path(directory, "sweep.json"))
    for name in ["summary.csv", "summary.md"] + RunTable.metricColumns.map({ "chart-\($0).svg" }) {
      try SweepFiles.remove(path(directory, name))
    }
  }

  /// Writes the files into `directory` (prepared here if the caller has not), `sweep.json` last.
  public static func write(manifest: SweepManifest, table: RunTable, to directory: String) throws(SweepError)
  {
    try prepare(directory)
    for file in files(manifest: manifest, table: table) {
      try SweepFiles.write(file.text, to: path(directory, file.name))
    }
  }

  /// Reads and checks the manifest of a sweep output directory.
  public static func readManifest(_ directory: String) throws(SweepError) -> SweepManifest {
    let file = path(directory, "sweep.json")
    guard SweepFiles.exists(file) else {
      throw SweepError(
        "\(directory): no sweep.json; the directory is not a finished bgsim sweep --out (did the sweep fail or is it still running?)"
      )
    }
    return try SweepManifest.parse(SweepFiles.read(file, limit: SweepManifest.maxFileSize), file: file)
  }

  static func path(_ directory: String, _ name: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
  }
}
