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

  /// Where `didFinishDownloadingTo` files live while the call runs (made once per container).
  var deliveryDirectory: URL {
    url.appendingPathComponent("Library/Caches/com.apple.nsurlsessiond/Downloads")
  }
  private var deliveryDirectoryMade = false

  /// The path of the `number`th delivered file.
  func deliveryFile(number: Int) -> URL {
    if !deliveryDirectoryMade {
      try? FileManager.default.createDirectory(at: deliveryDirectory, withIntermediateDirectories: true)
      deliveryDirectoryMade = true
    }
    return deliveryDirectory.appendingPathComponent("CFNetworkDownload_\(number).tmp")
  }

  /// A file of `size` bytes that takes no disk space: created empty and extended, with three
  /// system calls (this runs once per delivered download). With `unread`, its access time is set
  /// to the epoch so that `wasRead(_:)` can tell whether the app opened it and read from it.
  static func writeSparseFile(at file: URL, size: Int64, unread: Bool = false) {
    let fd = open(file.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
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

  /// Deletes a file if it is there (one system call; a missing file is no error).
  static func remove(_ file: URL) { _ = unlink(file.path) }

  /// True when a file written `unread` has been read since: its access time moved off the epoch.
  /// Relies on the file system updating access times (Linux's default `relatime` does; a volume
  /// mounted `noatime` never does, and then a file read in place counts as lost).
  static func wasRead(_ file: URL) -> Bool {
    var info = stat()
    guard stat(file.path, &info) == 0 else { return false }
    #if canImport(Darwin)
      return info.st_atimespec.tv_sec != 0
    #else
      return info.st_atim.tv_sec != 0
    #endif
  }
}
