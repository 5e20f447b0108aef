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

  /// Where the app's `NSTemporaryDirectory()` points: the host's, since an in-process
  /// simulation cannot change it for one simulation without changing it for every test.
  let hostTemporaryDirectory = URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true)
  private let partialFilesLock = NSLock()
  /// Partial files also reachable in `hostTemporaryDirectory`, by name.
  private var hostPartialFiles: Set<String> = []

  /// The name of the partial file of resume data `token`: unique to this simulation (its
  /// container's name is a UUID), so that simulations running side by side never share one in
  /// the host's temporary directory.
  func partialFileName(token: Int) -> String {
    "CFNetworkDownload_bgsim\(token)-\(url.lastPathComponent).tmp"
  }

  /// False for a partial file name of another simulation's container (its own UUID in the name).
  func ownsPartialFileName(_ name: String) -> Bool {
    guard name.hasPrefix("CFNetworkDownload_bgsim"), name.hasSuffix(".tmp"), name.count > 41 else {
      return true
    }
    let id = name.dropLast(4).suffix(36)
    guard UUID(uuidString: String(id)) != nil else { return true }
    return id == url.lastPathComponent
  }

  /// Writes the partial file resume data names: a sparse file of `size` bytes in the
  /// container's `tmp`, and the same file (a hard link, or a second sparse file where links
  /// fail) at `NSTemporaryDirectory()` plus its name, where apps that check resume data look
  /// for it as on a device.
  func writePartialFile(named name: String, size: Int64) {
    ensureTemporaryDirectory()
    let inContainer = temporaryDirectory.appendingPathComponent(name).path
    Self.writeSparseFile(at: inContainer, size: size)
    let inHost = hostTemporaryDirectory.appendingPathComponent(name).path
    _ = unlink(inHost)
    if link(inContainer, inHost) != 0 { Self.writeSparseFile(at: inHost, size: size) }
    partialFilesLock.lock()
    hostPartialFiles.insert(name)
    partialFilesLock.unlock()
  }

  /// Deletes a partial file in both places (its resume data was consumed).
  func removePartialFile(named name: String) {
    _ = unlink(temporaryDirectory.appendingPathComponent(name).path)
    partialFilesLock.lock()
    let known = hostPartialFiles.remove(name) != nil
    partialFilesLock.unlock()
    if known { _ = unlink(hostTemporaryDirectory.appendingPathComponent(name).path) }
  }

  /// The host's copies go with the simulation: a device has no partial file once its app is gone.
  deinit {
    for name in hostPartialFiles { _ = unlink(hostTemporaryDirectory.appendingPathComponent(name).path) }
  }

  /// The files `didFinishDownloadingTo` hands the app.
  private(set) lazy var deliveries = DeliveryFiles(container: url)

  /// A file of `size` bytes that takes no disk space: created (or emptied) and extended. `path`
  /// is relative to the open folder `directory` when one is given (the delivered files), else as
  /// the current directory resolves it. With `unread`, its access time is set to the epoch and
  /// its modification time left as it is, so that `DeliveryFiles.fate(_:)` can tell whether
  /// the app read it.
  static func writeSparseFile(
    in directory: Int32 = AT_FDCWD, at path: String, size: Int64, unread: Bool = false
  ) {
    let fd = openat(directory, path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { return }
    resizeSparseFile(fd, size: size, unread: unread)
    _ = close(fd)
  }

  /// Extends the empty file open at `fd` to `size` bytes that take no disk space, and with
  /// `unread` sets its access time to the epoch (see `writeSparseFile`).
  static func resizeSparseFile(_ fd: Int32, size: Int64, unread: Bool) {
    if size > 0 { _ = ftruncate(fd, off_t(clamping: size)) }
    guard unread else { return }
    // `UTIME_OMIT` (a C macro Swift does not import): leave the modification time as it is.
    #if canImport(Darwin)
      let omit = -2
    #else
      let omit = (1 << 30) - 2
    #endif
    // A pair on the stack rather than an array: this runs at every delivered file.
    var times = (timespec(tv_sec: 0, tv_nsec: 0), timespec(tv_sec: 0, tv_nsec: omit))
    _ = withUnsafePointer(to: &times) {
      $0.withMemoryRebound(to: timespec.self, capacity: 2) { futimens(fd, $0) }
    }
  }
}
