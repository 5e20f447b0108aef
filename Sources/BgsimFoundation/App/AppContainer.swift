import Foundation

/// The app's sandbox: a real directory, one per simulation, that survives the app's processes.
/// Removed when the simulation is released unless `keep` is set.
final class AppContainer: @unchecked Sendable {
  let url: URL
  var keep = false

  init(parent: URL? = nil) {
    let base = parent ?? FileManager.default.temporaryDirectory.appendingPathComponent("bgsim-containers")
    // The name never reaches the trace, so it may differ between runs.
    url = base.appendingPathComponent(UUID().uuidString, isDirectory: true)
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    ensureTemporaryDirectory()
  }

  var temporaryDirectory: URL { url.appendingPathComponent("tmp", isDirectory: true) }

  func ensureTemporaryDirectory() {
    try? FileManager.default.createDirectory(at: temporaryDirectory, withIntermediateDirectories: true)
  }

  /// The folder one `didFinishDownloadingTo` file lives in while the call runs.
  func deliveryFolder(number: Int) -> URL {
    let folder = url.appendingPathComponent(
      "Library/Caches/com.apple.nsurlsessiond/Downloads/\(number)", isDirectory: true)
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  func removeUnlessKept() {
    guard !keep else { return }
    try? FileManager.default.removeItem(at: url)
  }

  /// A file of `size` bytes that takes no disk space: created empty and extended.
  static func writeSparseFile(at file: URL, size: Int64) {
    _ = FileManager.default.createFile(atPath: file.path, contents: nil)
    guard size > 0, let handle = try? FileHandle(forWritingTo: file) else { return }
    try? handle.truncate(atOffset: UInt64(size))
    try? handle.close()
  }
}
