import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Writes a file so that readers see the old file or the whole new one, never a part: the
/// bytes go to a temporary file in the same folder, are flushed to disk, and the temporary
/// file is renamed over the target (a rename within one file system is atomic). On failure
/// the temporary file is removed and the target is untouched.
public enum AtomicFile {
  /// Writes `bytes` to `path`. Messages name the path and say what failed in our own words.
  public static func write(_ bytes: some Collection<UInt8>, to path: String) throws(SweepError) {
    let temporary = temporaryPath(for: path)
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o644)
    guard fd >= 0 else { throw failure("cannot create", temporary, errno) }
    var failed: (String, Int32)?
    let buffer = Array(bytes)
    buffer.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        let n = systemWrite(fd, raw.baseAddress! + offset, raw.count - offset)
        if n < 0 {
          if errno == EINTR { continue }
          failed = ("cannot write", errno)
          return
        }
        offset += n
      }
    }
    if failed == nil, fsync(fd) != 0 { failed = ("cannot flush", errno) }
    if close(fd) != 0, failed == nil { failed = ("cannot close", errno) }
    if failed == nil, rename(temporary, path) != 0 { failed = ("cannot move the finished file onto", errno) }
    if let (what, code) = failed {
      unlink(temporary)
      throw failure(what, path, code)
    }
  }

  /// Creates the folder `path` and any missing parents (`mkdir -p`).
  public static func createDirectories(_ path: String) throws(SweepError) {
    var prefix = path.hasPrefix("/") ? "/" : ""
    for component in path.split(separator: "/") {
      prefix += component
      if mkdir(prefix, 0o755) != 0 {
        let code = errno
        var status = stat()
        guard code == EEXIST, stat(prefix, &status) == 0 else {
          throw failure("cannot create the folder", prefix, code)
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
          throw SweepError("cannot create the folder '\(prefix)': a file of that name is in the way")
        }
      }
      prefix += "/"
    }
  }

  /// Reads at most `limit` bytes of the regular file `path`: refuses folders, FIFOs and devices
  /// (which could block or never end) and larger files, before reading them.
  public static func read(_ path: String, limit: Int) throws(SweepError) -> [UInt8] {
    var status = stat()
    guard stat(path, &status) == 0 else { throw failure("cannot read", path, errno) }
    guard status.st_mode & S_IFMT == S_IFREG else { throw SweepError("'\(path)' is not a regular file") }
    guard Int(status.st_size) <= limit else {
      throw SweepError(
        "'\(path)' is \(status.st_size) bytes, more than the \(limit) this file can hold; is it the right file?"
      )
    }
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { throw failure("cannot read", path, errno) }
    defer { close(fd) }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(Int(status.st_size))
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while bytes.count <= limit {
      let n = chunk.withUnsafeMutableBytes { raw in systemRead(fd, raw.baseAddress!, raw.count) }
      if n < 0 {
        if errno == EINTR { continue }
        throw failure("cannot read", path, errno)
      }
      if n == 0 { break }
      bytes += chunk[..<n]
    }
    guard bytes.count <= limit else {
      throw SweepError("'\(path)' is more than \(limit) bytes; is it the right file?")
    }
    return bytes
  }

  /// Whether anything (file, folder, link) is at `path`.
  public static func exists(_ path: String) -> Bool {
    var status = stat()
    return lstat(path, &status) == 0
  }

  /// Removes `path` if it exists; a missing file is not an error.
  public static func remove(_ path: String) throws(SweepError) {
    if unlink(path) != 0, errno != ENOENT { throw failure("cannot remove", path, errno) }
  }

  /// `.NAME.tmp-PID-N` beside the target: hidden, unique per process and call.
  static func temporaryPath(for path: String) -> String {
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { String(path[...$0]) } ?? ""
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    return "\(folder).\(name).tmp-\(getpid())-\(counter.next())"
  }

  private static let counter = Counter()

  private static func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Darwin)
      return Darwin.write(fd, buffer, count)
    #elseif canImport(Glibc)
      return Glibc.write(fd, buffer, count)
    #else
      return Musl.write(fd, buffer, count)
    #endif
  }

  private static func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Darwin)
      return Darwin.read(fd, buffer, count)
    #elseif canImport(Glibc)
      return Glibc.read(fd, buffer, count)
    #else
      return Musl.read(fd, buffer, count)
    #endif
  }

  /// A failure in our own words (the C library's texts differ between platforms).
  static func failure(_ what: String, _ path: String, _ code: Int32) -> SweepError {
    SweepError("\(what) '\(path)': \(reason(code))")
  }

  static func reason(_ code: Int32) -> String {
    switch code {
    case ENOSPC: return "no space left on the device"
    case EDQUOT: return "disk quota exceeded"
    case EACCES, EPERM: return "permission denied"
    case EROFS: return "the file system is read-only"
    case ENOENT: return "no such file or directory"
    case ENOTDIR: return "a part of the path is not a directory"
    case EISDIR: return "is a directory"
    case EIO: return "input/output error"
    case ENAMETOOLONG: return "the name is too long"
    default: return "system error \(code)"
    }
  }
}

/// A process-wide counter for unique temporary names.
///
/// `@unchecked Sendable` is sound: `value` is only touched under `lock`.
private final class Counter: @unchecked Sendable {
  private var value = 0
  private let lock = NSLock()

  func next() -> Int {
    lock.withLock {
      value += 1
      return value
    }
  }
}
