#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What an output path leads to, and so how `AtomicFile` writes it.
enum OutputTarget: Equatable {
  /// A folder: nothing can be written there under this name.
  case folder
  /// The file that descriptor 1 or 2 writes to (`/dev/stdout`, or a file the shell redirected
  /// standard output to): written through that descriptor, so nothing else printed is lost.
  case stream(Int32)
  /// A FIFO, a device or a socket: opened and written, never replaced.
  case writeThrough
  /// A regular file or none yet, after following symbolic links: replaced atomically.
  case replace(String)
  /// The links could not be followed (a loop, a link that cannot be read): the `errno`.
  case unresolvable(Int32)

  /// How many links are followed before a chain is taken for a loop (as the kernels do).
  static let maxLinks = 40

  static func of(_ path: String) -> OutputTarget {
    var status = stat()
    if stat(path, &status) == 0 {
      let kind = status.st_mode & S_IFMT
      if kind == S_IFDIR { return .folder }
      if let fd = [STDOUT_FILENO, STDERR_FILENO].first(where: { sameFile(status, descriptor: $0) }) {
        return .stream(fd)
      }
      if kind != S_IFREG { return .writeThrough }
    }
    // A regular file, a missing one, or a link to a missing one: the file the links lead to.
    switch FileIdentity.followLinks(path) {
    case .success(let file): return .replace(file)
    case .failure(let error): return .unresolvable(error.code)
    }
  }

  private static func sameFile(_ status: stat, descriptor: Int32) -> Bool {
    var other = stat()
    guard fstat(descriptor, &other) == 0 else { return false }
    return FileIdentity(status) == FileIdentity(other)
  }
}

/// Writes to what cannot be replaced: a FIFO (waiting for its reader, as a shell redirection
/// does), a device, or a Unix socket (connected to as a stream).
enum WriteThrough {
  static func write(_ bytes: UnsafeRawBufferPointer, to path: String) -> Int32? {
    var status = stat()
    let isSocket = stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFSOCK
    let fd = isSocket ? UnixSocket.connectStream(path) : openForWriting(path)
    guard fd >= 0 else { return errno }
    var problem = DescriptorWriter.writeAll(fd, bytes)
    if close(fd) != 0, problem == nil, errno != EINTR { problem = errno }
    return problem
  }

  private static func openForWriting(_ path: String) -> Int32 {
    while true {
      let fd = open(path, O_WRONLY | O_NOCTTY)
      if fd < 0 && errno == EINTR { continue }
      return fd
    }
  }
}
