import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The bridge's view of the app's sandbox: the engine's container directory (one per simulation,
/// surviving the app's processes, removed with the simulation unless kept), plus the folders the
/// bridge writes into it (`tmp` and the delivered files).
final class AppContainer: @unchecked Sendable {
  let url: URL

  init(directory: String) {
    url = URL(fileURLWithPath: directory, isDirectory: true)
    ensureTemporaryDirectory()
  }

  var temporaryDirectory: URL { url.appendingPathComponent("tmp", isDirectory: true) }

  func ensureTemporaryDirectory() {
    try? FileManager.default.createDirectory(at: temporaryDirectory, withIntermediateDirectories: true)
  }

  /// The files `didFinishDownloadingTo` hands the app.
  private(set) lazy var deliveries = DeliveryFiles(container: url)

  /// A file of `size` bytes that takes no disk space: created (or emptied) and extended. `path`
  /// is relative to the open folder `directory` when one is given (the delivered files), else as
  /// the current directory resolves it. With `unread`, its access time is set to the epoch and
  /// its modification time left as it is, so that `DeliveryFiles.wasTaken(_:)` can tell whether
  /// the app read it.
  static func writeSparseFile(
    in directory: Int32 = AT_FDCWD, at path: String, size: Int64, unread: Bool = false
  ) {
    let fd = openat(directory, path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { return }
    if size > 0 { _ = ftruncate(fd, off_t(clamping: size)) }
    if unread {
      // `UTIME_OMIT` (a C macro Swift does not import): leave the modification time as it is.
      #if canImport(Darwin)
        let omit = -2
      #else
        let omit = (1 << 30) - 2
      #endif
      var times = [timespec(tv_sec: 0, tv_nsec: 0), timespec(tv_sec: 0, tv_nsec: omit)]
      _ = futimens(fd, &times)
    }
    _ = close(fd)
  }
}
