#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An exclusive advisory lock (`flock`) on a folder, held while one process reads and rewrites
/// the files that describe the folder's contents (a report's index), so that two processes
/// writing into one folder at once cannot lose each other's entries.
///
/// The lock is taken on the folder itself, not on a lock file in it: nothing is left behind,
/// and there is no lock file another process could remove while it is held. It is released
/// when `unlock()` is called or the process ends.
public final class FolderLock {
  private var fd: Int32

  /// Waits until no other process holds the lock on `directory`, then holds it.
  public init(_ directory: String) throws(FileWriteError) {
    fd = open(directory, O_RDONLY)
    guard fd >= 0 else { throw FileWriteError(path: directory, reason: SystemError.describe(errno)) }
    while flock(fd, LOCK_EX) != 0 {
      let code = errno
      if code == EINTR { continue }
      close(fd)
      fd = -1
      throw FileWriteError(path: directory, reason: "cannot lock the folder: \(SystemError.describe(code))")
    }
  }

  /// Releases the lock (once; later calls do nothing).
  public func unlock() {
    guard fd >= 0 else { return }
    flock(fd, LOCK_UN)
    close(fd)
    fd = -1
  }

  deinit { unlock() }
}
