#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a file could not be written; `description` is the one-line message to print.
public struct FileWriteError: Error, Sendable, CustomStringConvertible {
  /// The file as the caller named it.
  public var path: String
  /// What went wrong, in our own words (`no space left on the device`).
  public var reason: String

  public init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  public var description: String { "cannot write '\(TerminalText.escape(path))': \(reason)" }
}

/// Writes an output so that what the path points at is respected.
///
/// A regular file (or a missing one) is replaced atomically: the content goes to a temporary
/// file in the file's own folder (so the rename stays on one file system), is flushed to disk,
/// then renamed over it. A full disk, a missing folder or an interrupt therefore never leaves
/// a truncated file under the target's name, and never destroys the file that was there before.
/// A symbolic link is followed (chains too) and the file it leads to is replaced; the link stays.
/// Anything else (a FIFO, a terminal or other device, a socket, the file that standard output
/// or standard error already writes to) is written through, never replaced: renaming over
/// `/dev/null` as root would replace it for the whole machine.
public enum AtomicFile {
  /// Writes `text` as UTF-8 to `path` (see the type's rules for what is replaced).
  public static func write(_ text: String, to path: String) throws(FileWriteError) {
    var text = text
    let result: FileWriteError? = text.withUTF8 { write(UnsafeRawBufferPointer($0), to: path) }
    if let result { throw result }
  }

  /// Writes `bytes` to `path` (see the type's rules for what is replaced).
  public static func write(bytes: [UInt8], to path: String) throws(FileWriteError) {
    let result: FileWriteError? = bytes.withUnsafeBytes { write($0, to: path) }
    if let result { throw result }
  }

  private static func write(_ bytes: UnsafeRawBufferPointer, to path: String) -> FileWriteError? {
    func failure(_ code: Int32) -> FileWriteError {
      FileWriteError(path: path, reason: SystemError.describe(code))
    }
    guard !path.isEmpty else { return FileWriteError(path: path, reason: "the file name is empty") }
    switch OutputTarget.of(path) {
    case .folder:
      return FileWriteError(path: path, reason: "it is a directory; give a file name")
    case .stream(let fd):
      return DescriptorWriter.writeAll(fd, bytes).map(failure)
    case .writeThrough:
      return WriteThrough.write(bytes, to: path).map(failure)
    case .replace(let file):
      return replace(file, with: bytes).map(failure)
    case .unresolvable(let code):
      return failure(code)
    }
  }

  /// Writes `bytes` to a temporary file beside `file`, then renames it over `file`.
  private static func replace(_ file: String, with bytes: UnsafeRawBufferPointer) -> Int32? {
    var template = Array((folder(of: file) + "/.bgsim-XXXXXX.tmp").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 4) }
    guard fd >= 0 else { return errno }
    let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var problem = DescriptorWriter.writeAll(fd, bytes)
    if problem == nil, fchmod(fd, mode_t(0o666) & ~currentUmask) != 0 { problem = errno }
    if problem == nil, fsync(fd) != 0 { problem = errno }
    if close(fd) != 0, problem == nil { problem = errno }
    if problem == nil, rename(temporary, file) != 0 { problem = errno }
    if problem != nil { unlink(temporary) }
    return problem
  }

  /// The folder part of `path` (`.` when there is none).
  static func folder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    if slash == path.startIndex { return "/" }
    return String(path[..<slash])
  }

  /// The process's umask, so that new files get the permissions an ordinary write would give.
  private static let currentUmask: mode_t = {
    let mask = umask(0o022)
    umask(mask)
    return mask
  }()
}

extension AtomicFile {
  /// Creates the folder `path` and any missing parents (`mkdir -p`); an existing folder is fine.
  public static func createFolder(_ path: String) throws(FileWriteError) {
    var partial = path.hasPrefix("/") ? "/" : ""
    for component in path.split(separator: "/", omittingEmptySubsequences: true) {
      partial += (partial.isEmpty || partial.hasSuffix("/") ? "" : "/") + component
      if mkdir(partial, 0o777) == 0 { continue }
      let code = errno
      var status = stat()
      if stat(partial, &status) == 0 {
        guard (status.st_mode & S_IFMT) == S_IFDIR else {
          throw FileWriteError(
            path: path, reason: "'\(TerminalText.escape(partial))' is a file, not a folder")
        }
        continue
      }
      throw FileWriteError(path: path, reason: SystemError.describe(code))
    }
  }
}
