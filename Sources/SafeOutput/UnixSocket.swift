#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A stream connection to a Unix socket named by a path: a socket cannot be opened like a file,
/// and an output that names one is written to whoever listens there.
enum UnixSocket {
  /// A connected descriptor, or -1 with `errno` set.
  static func connectStream(_ path: String) -> Int32 {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let name = Array(path.utf8)
    guard name.count < MemoryLayout.size(ofValue: address.sun_path) else {
      errno = ENAMETOOLONG
      return -1
    }
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: name) }
    #if canImport(Darwin)
      address.sun_len = UInt8(MemoryLayout<sockaddr_un>.size)
      let fd = socket(AF_UNIX, SOCK_STREAM, 0)
    #elseif canImport(Glibc)
      let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(AF_UNIX, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { return -1 }
    let connected = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard connected == 0 else {
      let code = errno
      close(fd)
      errno = code
      return -1
    }
    return fd
  }
}
