import Foundation

/// Finding scenario files on disk.
enum ScenarioFiles {
  /// The scenario files under each of `paths`, in order; a missing path is a usage error.
  static func find(under paths: [String], command: Command) throws(CommandLineError) -> [String] {
    var files: [String] = []
    for path in paths {
      guard let found = find(under: path) else {
        throw .usage("no file or directory '\(path)'", command: command.name)
      }
      files += found
    }
    return files
  }

  /// `path` itself if it is a file; every `*.json` below it (sorted) if a directory; nil if absent.
  static func find(under path: String) -> [String]? {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
    guard isDirectory.boolValue else { return [path] }
    let base = path.hasSuffix("/") ? String(path.dropLast()) : path
    let entries = FileManager.default.enumerator(atPath: path)?.compactMap { $0 as? String } ?? []
    return entries.filter { $0.hasSuffix(".json") }.sorted().map { "\(base)/\($0)" }
  }
}
