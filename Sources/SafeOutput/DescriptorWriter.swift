#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes whole buffers to a file descriptor, retrying interrupted and partial writes.
///
/// `FileHandle.write(_:)` traps when a write fails (a full disk, a closed pipe); this returns
/// the `errno` instead so that the caller can end cleanly.
public enum DescriptorWriter {
  /// Writes every byte of `bytes` to `fd`; returns nil on success, else the `errno` of the
  /// failed write.
  public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
    guard var next = bytes.baseAddress else { return nil }
    var left = bytes.count
    while left > 0 {
      let written = write(fd, next, left)
      if written < 0 {
        if errno == EINTR { continue }
        return errno
      }
      if written == 0 { return EIO }
      next += written
      left -= written
    }
    return nil
  }

  /// Writes the UTF-8 of `text` to `fd`; nil on success, else the `errno`.
  public static func writeAll(_ fd: Int32, _ text: String) -> Int32? {
    var text = text
    return text.withUTF8 { writeAll(fd, UnsafeRawBufferPointer($0)) }
  }
}
