#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Our own words for the `errno` values a write or a rename can end with.
///
/// Foundation's error texts differ between macOS and Linux (and print codes such as
/// `NSCocoaErrorDomain error 512`), so messages are built from `errno` here instead.
public enum SystemError {
  /// `no space left on the device`, `permission denied`, ... or `system error N`.
  public static func describe(_ code: Int32) -> String {
    switch code {
    case ENOSPC: return "no space left on the device"
    case EDQUOT: return "the disk quota is exceeded"
    case EFBIG: return "the file is too large for the file system"
    case EACCES, EPERM: return "permission denied"
    case ENOENT: return "no such directory"
    case ENOTDIR: return "a part of the path is not a directory"
    case EISDIR: return "it is a directory"
    case EROFS: return "the file system is read-only"
    case ENAMETOOLONG: return "the name is too long"
    case EPIPE: return "the reading end of the pipe is closed"
    case EBADF: return "it is not open for writing"
    case EIO: return "an input/output error"
    case EXDEV: return "the temporary file is on another file system"
    case ELOOP: return "too many symbolic links (a loop?)"
    case ENXIO: return "nothing is reading the other end"
    case ECONNREFUSED: return "nothing is listening on the socket"
    case ENOTSOCK, EPROTOTYPE: return "it is a socket that does not take a stream"
    default: return "system error \(code)"
    }
  }
}
