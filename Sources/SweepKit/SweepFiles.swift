import SafeOutput

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The file operations of sweep and calibration outputs, with messages in our own words: atomic writes and
/// folder creation through `SafeOutput.AtomicFile`, and bounded reads of what `sweep-merge`
/// is given (which may be anything: a FIFO, a huge file, a folder).
public enum SweepFiles {
  /// Writes `text` to `path` as `AtomicFile` does (a regular file through a temporary file and a
  /// rename; a FIFO or device written through). A failure is an output failure (exit 74).
  public static func write(_ text: String, to path: String) throws(SweepError) {
    do {
      try AtomicFile.write(text, to: path)
    } catch {
      throw SweepError(error.description, isOutputFailure: true)
    }
  }

  /// Creates the folder `path` and any missing parents.
  public static func createFolder(_ path: String) throws(SweepError) {
    do {
      try AtomicFile.createFolder(path)
    } catch {
      throw SweepError(error.description, isOutputFailure: true)
    }
  }

  /// Whether anything (file, folder, link) is at `path`.
  public static func exists(_ path: String) -> Bool {
    var status = stat()
    return lstat(path, &status) == 0
  }

  /// Removes the file `path` if it exists; a missing file is not an error.
  public static func remove(_ path: String) throws(SweepError) {
    if unlink(path) != 0, errno != ENOENT {
      throw SweepError("cannot remove '\(path)': \(SystemError.describe(errno))", isOutputFailure: true)
    }
  }

  /// Reads at most `limit` bytes of the regular file `path`: refuses folders, FIFOs and devices
  /// (which could block or never end) and larger files, before reading them.
  public static func read(_ path: String, limit: Int) throws(SweepError) -> [UInt8] {
    func failure(_ code: Int32) -> SweepError {
      SweepError("cannot read '\(path)': \(SystemError.describe(code))")
    }
    var status = stat()
    guard stat(path, &status) == 0 else { throw failure(errno) }
    guard status.st_mode & S_IFMT == S_IFREG else { throw SweepError("'\(path)' is not a regular file") }
    guard Int(status.st_size) <= limit else {
      throw SweepError(
        "'\(path)' is \(status.st_size) bytes, more than such a file can be here; is it the right file?")
    }
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { throw failure(errno) }
    defer { close(fd) }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(Int(status.st_size))
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while bytes.count <= limit {
      let n = chunk.withUnsafeMutableBytes { raw in systemRead(fd, raw.baseAddress!, raw.count) }
      if n < 0 {
        if errno == EINTR { continue }
        throw failure(errno)
      }
      if n == 0 { break }
      bytes += chunk[..<n]
    }
    guard bytes.count <= limit else { throw SweepError("'\(path)' grew past its limit while being read") }
    return bytes
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
}
