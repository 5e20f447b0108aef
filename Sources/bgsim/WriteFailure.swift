import Foundation

/// Why a file could not be written, in bgsim's own words: Foundation's error texts differ
/// between Linux and Darwin, so messages never print them.
enum WriteFailure {
  /// `the folder 'out' does not exist`, `'x' is a directory`, or a permission hint.
  static func reason(path: String) -> String {
    let manager = FileManager.default
    var isDirectory: ObjCBool = false
    if manager.fileExists(atPath: path, isDirectory: &isDirectory) {
      if isDirectory.boolValue { return "'\(path)' is a directory" }
      if !manager.isWritableFile(atPath: path) { return "'\(path)' is not writable" }
    }
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    if !manager.fileExists(atPath: folder, isDirectory: &isDirectory) {
      return "the folder '\(folder)' does not exist"
    }
    if !isDirectory.boolValue { return "'\(folder)' is not a folder" }
    if !manager.isWritableFile(atPath: folder) { return "the folder '\(folder)' is not writable" }
    return "the write failed (is the disk full?)"
  }
}
