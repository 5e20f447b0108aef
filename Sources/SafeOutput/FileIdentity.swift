#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file as the system knows it: its device and inode, whatever path or link names it.
///
/// Two spellings of one file (`x.json`, `./x.json`, a link to it, a hard link) have the same
/// identity, so comparing identities, not strings, tells whether an output would overwrite
/// an input.
public struct FileIdentity: Hashable, Sendable {
  public var device: UInt64
  public var inode: UInt64

  init(_ status: stat) {
    device = UInt64(truncatingIfNeeded: status.st_dev)
    inode = UInt64(truncatingIfNeeded: status.st_ino)
  }

  /// The identity of the regular file `path` leads to (links followed); nil when there is no
  /// such file, or it is a folder, a FIFO, a device or a socket (several paths may name one
  /// terminal without anything being overwritten).
  public static func ofRegularFile(_ path: String) -> FileIdentity? {
    var status = stat()
    guard !path.isEmpty, stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
    return FileIdentity(status)
  }

  /// The first output that is the same regular file as an input, with that input; nil when
  /// writing every output leaves every input as it is.
  public static func firstClash(outputs: [String], inputs: [String]) -> (output: String, input: String)? {
    var byIdentity: [FileIdentity: String] = [:]
    for input in inputs {
      if let identity = ofRegularFile(input), byIdentity[identity] == nil { byIdentity[identity] = input }
    }
    guard !byIdentity.isEmpty else { return nil }
    for output in outputs {
      if let identity = ofRegularFile(output), let input = byIdentity[identity] { return (output, input) }
    }
    return nil
  }

  /// The path `path` leads to once every symbolic link on its last component is followed, the
  /// relative ones from the link's own folder: the file a write should replace (it may not exist
  /// yet). `ELOOP` after `OutputTarget.maxLinks` links.
  static func followLinks(_ path: String) -> Result<String, SystemErrorCode> {
    var current = path
    for _ in 0..<OutputTarget.maxLinks {
      var status = stat()
      guard lstat(current, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return .success(current) }
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let count = readlink(current, &buffer, buffer.count - 1)
      guard count > 0 else { return .failure(SystemErrorCode(count < 0 ? errno : ENOENT)) }
      let target = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      current = target.hasPrefix("/") ? target : AtomicFile.folder(of: current) + "/" + target
    }
    return .failure(SystemErrorCode(ELOOP))
  }
}

/// An `errno` value carried as an `Error` (for `Result`).
struct SystemErrorCode: Error, Equatable {
  var code: Int32
  init(_ code: Int32) { self.code = code }
}
