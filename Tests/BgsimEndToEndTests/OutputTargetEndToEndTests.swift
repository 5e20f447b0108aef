import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Outputs that respect what they point at (issue 28): FIFOs, devices and standard output are
/// written through, links followed, and an output that is an input is refused before anything
/// runs.
@Suite struct OutputTargetEndToEndTests {
  static let scenario = OutputSafetyTests.scenario

  static func kind(_ path: String) -> mode_t {
    var status = stat()
    guard lstat(path, &status) == 0 else { return 0 }
    return status.st_mode & S_IFMT
  }

  /// A character device that is safe to write to: as root a node with the numbers of `real`
  /// made in `folder` (so a bug could only replace that node), else `real` itself (without
  /// root a rename into /dev fails, it never replaces the device). Nil when neither works.
  static func device(like real: String, in folder: URL) -> String? {
    var status = stat()
    guard stat(real, &status) == 0, status.st_mode & S_IFMT == S_IFCHR else { return nil }
    guard getuid() == 0 else { return real }
    let copy = folder.appendingPathComponent((real as NSString).lastPathComponent).path
    return mknod(copy, S_IFCHR | 0o666, status.st_rdev) == 0 ? copy : nil
  }

  /// Runs bgsim with standard output going to `stdout` (standard error captured).
  static func run(_ sandbox: BgsimSandbox, _ arguments: [String], stdout: FileHandle) throws -> (
    stderr: String, status: Int32
  ) {
    let process = Process()
    process.executableURL = try BgsimSandbox.executable()
    process.arguments = arguments
    process.currentDirectoryURL = sandbox.directory
    let err = sandbox.directory.appendingPathComponent(".stderr")
    _ = FileManager.default.createFile(atPath: err.path, contents: nil)
    process.standardOutput = stdout
    process.standardError = try FileHandle(forWritingTo: err)
    try process.run()
    process.waitUntilExit()
    return (try String(contentsOf: err, encoding: .utf8), process.terminationStatus)
  }

  @Test func aTraceIntoAFIFOReachesItsReaderAndTheFIFOStays() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try sandbox.write("s.json", Self.scenario)
    let fifo = sandbox.directory.appendingPathComponent("trace.fifo").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let reader = ThreadResult { () -> String in
      guard let handle = FileHandle(forReadingAtPath: fifo) else { return "<no reader>" }
      defer { try? handle.close() }
      return String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
    }
    let result = try sandbox.run(["run", "s.json", "--quiet", "--trace-out", "trace.fifo"])
    #expect(result.status == 0, "\(result.stderr)")
    let trace = reader.wait()
    #expect(
      trace.hasPrefix("{\"t\": 0, \"at\": \"0s\", ") && trace.contains("\"kind\": \"app.launch\""),
      "\(trace.prefix(200))")
    #expect(trace.hasSuffix("\n") && trace.split(separator: "\n").count > 5)
    #expect(Self.kind(fifo) == S_IFIFO)
  }

  @Test func aTraceThroughAChainOfLinksReplacesTheTargetAndKeepsTheLinks() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try sandbox.write("s.json", Self.scenario)
    try sandbox.write("traces/real.jsonl", "old\n")
    let dir = sandbox.directory.path
    #expect(symlink("traces/real.jsonl", dir + "/inner") == 0)
    #expect(symlink("inner", dir + "/outer") == 0)
    let result = try sandbox.run(["run", "s.json", "--quiet", "--trace-out", "outer"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(Self.kind(dir + "/outer") == S_IFLNK && Self.kind(dir + "/inner") == S_IFLNK)
    let trace = try String(contentsOfFile: dir + "/traces/real.jsonl", encoding: .utf8)
    #expect(trace.hasPrefix("{\"t\": 0, \"at\": \"0s\", ") && trace.contains("\"kind\": \"app.launch\""))
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/traces") == ["real.jsonl"])
  }

  /// `/dev/null` as root was renamed over, turning it into a regular file for the whole machine.
  /// The device here is this test's own copy (see `device(like:in:)`).
  @Test func aTraceIntoACharacterDeviceLeavesTheDevice() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try sandbox.write("s.json", Self.scenario)
    guard let null = Self.device(like: "/dev/null", in: sandbox.directory) else {
      print("skipped: no character device to write to")
      return
    }
    for arguments in [
      ["run", "s.json", "--quiet", "--trace-out", null], ["check", "s.json", "--junit", null],
    ] {
      let result = try sandbox.run(arguments)
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
      #expect(Self.kind(null) == S_IFCHR)
    }
    let left = try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path)
    #expect(!left.contains { $0.hasPrefix(".bgsim-") }, "\(left)")
  }

  /// The real `/dev/null`, as root, in a private mount namespace where a copy of it is
  /// bind-mounted over it: whatever happens stays in the namespace. Skipped without root or
  /// `unshare`.
  @Test func theRealDevNullPathAsRootInAPrivateMountNamespace() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try sandbox.write("s.json", Self.scenario)
    guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare"),
      let copy = Self.device(like: "/dev/null", in: sandbox.directory)
    else {
      print("skipped: needs root and unshare")
      return
    }
    let bgsim = try BgsimSandbox.executable().path
    // bgsim runs only once the copy is mounted over /dev/null in the private namespace.
    let script =
      "mount --make-rprivate / && mount --bind '\(copy)' /dev/null || exit 99; echo namespace; "
      + "'\(bgsim)' run s.json --quiet --trace-out /dev/null >out.txt; echo \"status $?\"; stat -c %F /dev/null"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
    process.arguments = ["-m", "/bin/sh", "-c", script]
    process.currentDirectoryURL = sandbox.directory
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    // Without the privilege to unshare or mount (a container's default), unshare or the
    // script exits before `echo namespace`.
    guard text.hasPrefix("namespace\n") else {
      print("skipped: cannot make a private mount namespace here")
      return
    }
    #expect(text == "namespace\nstatus 0\ncharacter special file\n")
    #expect(Self.kind("/dev/null") == S_IFCHR)
  }

  /// `--junit /dev/stdout` with standard output redirected to a file: the verdicts and the XML
  /// both arrive, in order, in the same file, and `/dev/stdout` is still a link.
  @Test func junitToDevStdoutWritesThroughStandardOutput() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try sandbox.write("s.json", Self.scenario)
    let outPath = sandbox.directory.appendingPathComponent("out.txt")
    _ = FileManager.default.createFile(atPath: outPath.path, contents: nil)
    let before = try FileManager.default.attributesOfItem(atPath: outPath.path)[.systemFileNumber] as? Int
    let result = try Self.run(
      sandbox, ["check", "s.json", "--junit", "/dev/stdout"], stdout: try FileHandle(forWritingTo: outPath))
    #expect(result.status == 0, "\(result.stderr)")
    let text = try String(contentsOf: outPath, encoding: .utf8)
    let summary = try #require(text.range(of: "1 passed, 0 failed\n"))
    let xml = try #require(text.range(of: "<?xml"))
    #expect(summary.upperBound <= xml.lowerBound, "\(text)")
    #expect(text.contains("<testsuites"))
    let after = try FileManager.default.attributesOfItem(atPath: outPath.path)[.systemFileNumber] as? Int
    #expect(before == after)
    #expect(Self.kind("/dev/stdout") == S_IFLNK || Self.kind("/dev/stdout") == S_IFCHR)
  }

  /// A trace into `/dev/stdout` when standard output is a pipe.
  @Test func traceToDevStdoutThroughAPipe() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try sandbox.write("s.json", Self.scenario)
    let pipe = Pipe()
    let reading = pipe.fileHandleForReading
    let reader = ThreadResult { reading.readDataToEndOfFile() }
    let result = try Self.run(
      sandbox, ["run", "s.json", "--quiet", "--trace-out", "/dev/stdout"], stdout: pipe.fileHandleForWriting)
    try pipe.fileHandleForWriting.close()
    #expect(result.status == 0, "\(result.stderr)")
    let text = String(decoding: reader.wait(), as: UTF8.self)
    #expect(text.contains("\"kind\": \"app.launch\""))
    #expect(text.contains("1 of 1 expectations hold"))
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
