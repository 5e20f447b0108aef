import Foundation
import SafeOutput
import ScenarioKit

/// Writes a report directory: a page per scenario file and `index.html` linking them.
public enum ReportWriter {
  /// Writes a page for each result and `index.html`, creating the directory.
  /// The index lists this run's pages, then the pages earlier reports wrote into the same
  /// directory (remembered in `index.jsonl`) that this run did not replace.
  ///
  /// A page belongs to the scenario file it was made from (`ReportPageNames`): reporting the
  /// same file again replaces its page, and a file of another folder whose scenario has the
  /// same name gets a page of its own. The pages are chosen and written, and the manifest and
  /// index rebuilt, while holding a lock on the directory (`FolderLock`), so reports run at
  /// once into one directory keep every page listed.
  ///
  /// - Parameters:
  ///   - results: each run with the scenario file it came from (shown on the pages).
  ///   - directory: created if missing.
  /// - Returns: the pages written, index last, as paths inside `directory`.
  @discardableResult
  public static func write(results: [(file: String, result: RunResult)], to directory: String)
    throws(FileWriteError) -> [String]
  {
    try AtomicFile.createFolder(directory)
    let lock = try FolderLock(directory)
    defer { lock.unlock() }
    func inFolder(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }
    let earlier = ReportManifest.read(directory: directory)
    let present = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    let names = ReportPageNames.assign(
      results.map { (file: $0.file, name: $0.result.scenario.name) }, earlier: earlier, present: present)
    var entries: [ReportIndex.Entry] = []
    var written: [String] = []
    for ((file, result), page) in zip(results, names) {
      let path = inFolder(page)
      try write(HTMLReport.render(result, file: file), to: path)
      written.append(path)
      entries.append(
        ReportIndex.Entry(
          name: result.scenario.name, description: result.scenario.description, passed: result.passed,
          simulatedTime: result.endTime, link: page, file: file))
    }
    let current = Set(entries.map(\.link))
    let reported = Set(results.map { ReportPageNames.source($0.file) })
    for entry in earlier where !current.contains(entry.link) {
      if reported.contains(ReportPageNames.source(entry.file)) {
        // The file's page under the name its scenario had before: the new page replaces it.
        try? FileManager.default.removeItem(atPath: inFolder(entry.link))
      } else {
        entries.append(entry)
      }
    }
    try write(
      entries.map(ReportManifest.line).joined(separator: "\n") + "\n", to: inFolder(ReportManifest.fileName))
    let index = inFolder("index.html")
    try write(ReportIndex.render(entries), to: index)
    written.append(index)
    return written
  }

  /// The page file name of each scenario name, as if each came from its own file: unique
  /// within the list and never `index.html`.
  public static func pageNames(_ names: [String]) -> [String] {
    ReportPageNames.assign(
      names.enumerated().map { (file: "#\($0.offset)", name: $0.element) }, earlier: [], present: [])
  }

  /// Each page is written atomically (`AtomicFile`): a full disk never leaves half a page.
  private static func write(_ text: String, to path: String) throws(FileWriteError) {
    try AtomicFile.write(text, to: path)
  }
}
