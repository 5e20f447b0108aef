import Foundation
import SafeOutput
import ScenarioKit

/// Writes a report directory: a page per scenario and `index.html` linking them.
public enum ReportWriter {
  /// Writes `<scenario-name>.html` for each result and `index.html`, creating the directory.
  /// The index lists this run's pages, then the pages earlier reports wrote into the same
  /// directory (remembered in `index.jsonl`) that this run did not replace.
  ///
  /// Names are made safe for file names and links (`HTMLText.fileSafe`); two scenarios whose
  /// safe names collide get `-2`, `-3`, ... in the order given, so no page overwrites another.
  /// `index.html` is reserved for the index.
  ///
  /// - Parameters:
  ///   - results: each run with the scenario file it came from (shown on the pages).
  ///   - directory: created if missing; existing pages of the same names are replaced.
  /// - Returns: the pages written, index last, as paths inside `directory`.
  @discardableResult
  public static func write(results: [(file: String, result: RunResult)], to directory: String)
    throws(FileWriteError) -> [String]
  {
    try AtomicFile.createFolder(directory)
    let names = pageNames(results.map(\.result.scenario.name))
    var entries: [ReportIndex.Entry] = []
    var written: [String] = []
    for ((file, result), page) in zip(results, names) {
      let path = (directory as NSString).appendingPathComponent(page)
      try write(HTMLReport.render(result, file: file), to: path)
      written.append(path)
      entries.append(
        ReportIndex.Entry(
          name: result.scenario.name, description: result.scenario.description, passed: result.passed,
          simulatedTime: result.endTime, link: page, file: file))
    }
    let current = Set(entries.map(\.link))
    entries += ReportManifest.read(directory: directory).filter { !current.contains($0.link) }
    try write(
      entries.map(ReportManifest.line).joined(separator: "\n") + "\n",
      to: (directory as NSString).appendingPathComponent(ReportManifest.fileName))
    let index = (directory as NSString).appendingPathComponent("index.html")
    try write(ReportIndex.render(entries), to: index)
    written.append(index)
    return written
  }

  /// The page file name of each scenario name, unique within the list and never `index.html`.
  public static func pageNames(_ names: [String]) -> [String] {
    var used: Set<String> = ["index"]
    return names.map { name in
      let base = HTMLText.fileSafe(name)
      var candidate = base
      var n = 2
      while used.contains(candidate.lowercased()) {
        candidate = "\(base)-\(n)"
        n += 1
      }
      used.insert(candidate.lowercased())
      return candidate + ".html"
    }
  }

  /// Each page is written atomically (`AtomicFile`): a full disk never leaves half a page.
  private static func write(_ text: String, to path: String) throws(FileWriteError) {
    try AtomicFile.write(text, to: path)
  }
}
