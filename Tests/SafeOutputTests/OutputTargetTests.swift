import Foundation
import Testing

@testable import SafeOutput

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a write does to each kind of target (issue 28): regular and missing files are replaced
/// atomically, links are followed, FIFOs, devices and sockets are written through.
@Suite struct OutputTargetTests {
  private func folder() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("target-\(UUID().uuidString)")
      .path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  private func kind(_ path: String) -> mode_t {
    var status = stat()
    guard lstat(path, &status) == 0 else { return 0 }
    return status.st_mode & S_IFMT
  }

  private func inode(_ path: String) -> UInt64? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return UInt64(status.st_ino)
  }

  @Test func aMissingFileIsCreatedAndARegularOneReplacedByANewInode() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try AtomicFile.write("first\n", to: dir + "/out.txt")
    #expect(try String(contentsOfFile: dir + "/out.txt", encoding: .utf8) == "first\n")
    let before = inode(dir + "/out.txt")
    try AtomicFile.write("second\n", to: dir + "/out.txt")
    #expect(try String(contentsOfFile: dir + "/out.txt", encoding: .utf8) == "second\n")
    // Replaced by a rename, not rewritten in place: a reader of the old file sees it whole.
    #expect(inode(dir + "/out.txt") != before)
  }

  @Test func aFIFOIsWrittenThroughToItsReaderAndStaysAFIFO() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let fifo = dir + "/pipe"
    #expect(mkfifo(fifo, 0o600) == 0)
    // The reader opens the FIFO (blocking until the writer does) and reads to the end.
    let reader = ThreadResult { () -> String in
      guard let handle = FileHandle(forReadingAtPath: fifo) else { return "<no reader>" }
      defer { try? handle.close() }
      return String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
    }
    try AtomicFile.write("through the pipe\n", to: fifo)
    #expect(reader.wait() == "through the pipe\n")
    #expect(kind(fifo) == S_IFIFO)
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["pipe"])
  }

  @Test func aChainOfLinksIsFollowedAndTheLinksStay() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try FileManager.default.createDirectory(atPath: dir + "/real", withIntermediateDirectories: true)
    try AtomicFile.write("old\n", to: dir + "/real/file.txt")
    // outer -> inner (absolute) -> real/file.txt (relative to inner's folder)
    #expect(symlink("real/file.txt", dir + "/inner") == 0)
    #expect(symlink(dir + "/inner", dir + "/outer") == 0)
    try AtomicFile.write("new\n", to: dir + "/outer")
    #expect(kind(dir + "/outer") == S_IFLNK)
    #expect(kind(dir + "/inner") == S_IFLNK)
    #expect(kind(dir + "/real/file.txt") == S_IFREG)
    #expect(try String(contentsOfFile: dir + "/real/file.txt", encoding: .utf8) == "new\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/real") == ["file.txt"])
  }

  @Test func aLinkToAMissingFileCreatesItsTarget() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    #expect(symlink("target.txt", dir + "/link") == 0)
    try AtomicFile.write("made\n", to: dir + "/link")
    #expect(kind(dir + "/link") == S_IFLNK)
    #expect(try String(contentsOfFile: dir + "/target.txt", encoding: .utf8) == "made\n")
  }

  @Test func aLoopOfLinksIsAnErrorInOurWords() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    #expect(symlink("b", dir + "/a") == 0)
    #expect(symlink("a", dir + "/b") == 0)
    do {
      try AtomicFile.write("x", to: dir + "/a")
      Issue.record("expected a failure")
    } catch {
      #expect(error.description == "cannot write '\(dir)/a': too many symbolic links (a loop?)")
    }
    #expect(kind(dir + "/a") == S_IFLNK && kind(dir + "/b") == S_IFLNK)
  }

  /// A character device is written through. As root a rename over it would succeed, so the
  /// device is one this test makes (a copy of /dev/null's numbers) in its own folder; without
  /// root the real /dev/null is used (a rename into /dev would fail, not replace it).
  @Test func aCharacterDeviceIsWrittenThroughNeverReplaced() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    var null = stat()
    #expect(stat("/dev/null", &null) == 0)
    var device = "/dev/null"
    if getuid() == 0 {
      device = dir + "/null"
      guard mknod(device, S_IFCHR | 0o666, null.st_rdev) == 0 else {
        print("skipped: cannot make a device node here (\(errno))")
        return
      }
    }
    try AtomicFile.write("gone\n", to: device)
    #expect(kind(device) == S_IFCHR)
    var after = stat()
    #expect(stat(device, &after) == 0 && after.st_rdev == null.st_rdev)
    let left = try FileManager.default.contentsOfDirectory(atPath: dir)
    #expect(left == (getuid() == 0 ? ["null"] : []))
  }

  /// As root on this test's own copy of /dev/full (see the test above), else /dev/full.
  @Test func aFullDeviceSaysTheDiskIsFull() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    var real = stat()
    guard stat("/dev/full", &real) == 0 else {
      print("skipped: this system has no /dev/full")
      return
    }
    var full = "/dev/full"
    if getuid() == 0 {
      full = dir + "/full"
      guard mknod(full, S_IFCHR | 0o666, real.st_rdev) == 0 else {
        print("skipped: cannot make a device node here (\(errno))")
        return
      }
    }
    do {
      try AtomicFile.write("x", to: full)
      Issue.record("expected a failure")
    } catch {
      #expect(error.description == "cannot write '\(full)': no space left on the device")
    }
    #expect(kind(full) == S_IFCHR)
  }

  @Test func aUnixSocketIsConnectedToAndWrittenThrough() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let path = dir + "/s"
    let listener = try TestSocketListener(path: path)
    let received = ThreadResult { listener.acceptAndReadAll() }
    try AtomicFile.write("over the socket\n", to: path)
    #expect(received.wait() == "over the socket\n")
    #expect(kind(path) == S_IFSOCK)
  }

  @Test func firstClashComparesFilesNotSpellings() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try AtomicFile.write("{}", to: dir + "/x.json")
    #expect(symlink(dir + "/x.json", dir + "/alias") == 0)
    #expect(link(dir + "/x.json", dir + "/hard") == 0)
    let input = dir + "/x.json"
    #expect(FileIdentity.firstClash(outputs: [dir + "/./x.json"], inputs: [input])?.input == input)
    #expect(FileIdentity.firstClash(outputs: [dir + "/alias"], inputs: [input])?.output == dir + "/alias")
    #expect(FileIdentity.firstClash(outputs: [dir + "/hard"], inputs: [input]) != nil)
    #expect(FileIdentity.firstClash(outputs: [dir + "/other.json", "/dev/null"], inputs: [input]) == nil)
    // Devices are not files that can be overwritten: one terminal may be input and output.
    #expect(FileIdentity.firstClash(outputs: ["/dev/null"], inputs: ["/dev/null"]) == nil)
  }
}

/// A Unix stream socket listening at a path, for one connection.
final class TestSocketListener: @unchecked Sendable {
  let fd: Int32

  init(path: String) throws {
    #if canImport(Glibc)
      fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    #else
      fd = socket(AF_UNIX, SOCK_STREAM, 0)
    #endif
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let name = Array(path.utf8)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: name) }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard fd >= 0, bound == 0, listen(fd, 1) == 0 else { throw POSIXError(.EADDRNOTAVAIL) }
  }

  func acceptAndReadAll() -> String {
    defer { close(fd) }
    let connection = accept(fd, nil, nil)
    guard connection >= 0 else { return "<accept failed>" }
    defer { close(connection) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(connection, $0.baseAddress!, $0.count) }
      if n <= 0 { break }
      bytes += chunk[..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// Runs `body` on a thread of its own and hands its result back: a reader that must be waiting
/// while the code under test writes cannot be a task, since tests blocked in synchronous waits
/// can hold every thread of the concurrency pool, and the writer would wait for it forever.
final class ThreadResult<T>: @unchecked Sendable {
  private let done = DispatchSemaphore(value: 0)
  private var value: T?

  init(_ body: @escaping @Sendable () -> T) {
    Thread {
      self.value = body()
      self.done.signal()
    }.start()
  }

  /// The result, once `body` has returned.
  func wait() -> T {
    done.wait()
    return value!
  }
}
