import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Output written safely (issue 15): failed writes end with exit 74 and one line, files are
/// replaced atomically, and nothing from a scenario can forge a line on the terminal.
@Suite struct OutputSafetyTests {
  static let scenario = """
    {"name": "one-download", "seed": 1, "duration": "1h",
     "server": {"resources": [{"url": "https://example.com/a.zip", "size": "1MB"}]},
     "app": {"sessions": [{"identifier": "S"}]},
     "timeline": [{"at": "0s", "do": "launch"},
                  {"at": "1s", "do": "download", "session": "S", "url": "https://example.com/a.zip", "name": "a"}],
     "expect": [{"task": "a", "state": "completed"}]}
    """

  /// Runs bgsim through `/bin/sh` with SIGPIPE ignored (`trap '' PIPE`), standard output on
  /// `stdout` and standard error captured.
  private func run(
    _ sandbox: BgsimSandbox, _ arguments: [String], stdout: FileHandle
  ) throws -> (stderr: String, status: Int32) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments =
      ["-c", "trap '' PIPE; exec \"$0\" \"$@\"", try BgsimSandbox.executable().path] + arguments
    process.currentDirectoryURL = sandbox.directory
    let err = sandbox.directory.appendingPathComponent(".stderr")
    _ = FileManager.default.createFile(atPath: err.path, contents: nil)
    process.standardOutput = stdout
    process.standardError = try FileHandle(forWritingTo: err)
    try process.run()
    process.waitUntilExit()
    return (try String(contentsOf: err, encoding: .utf8), process.terminationStatus)
  }

  @Test func aFullStandardOutputExitsWith74() throws {
    guard let full = FileHandle(forWritingAtPath: "/dev/full") else {
      print("skipped: this system has no /dev/full")
      return
    }
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try sandbox.write("s.json", Self.scenario)
    let result = try run(sandbox, ["run", "s.json"], stdout: full)
    #expect(result.status == 74)
    #expect(result.stderr == "bgsim: cannot write to standard output: no space left on the device\n")
  }

  @Test func aClosedPipeWithSIGPIPEIgnoredExitsWith74() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try sandbox.write("s.json", Self.scenario)
    let pipe = Pipe()
    try pipe.fileHandleForReading.close()
    let result = try run(sandbox, ["run", "s.json"], stdout: pipe.fileHandleForWriting)
    #expect(result.status == 74)
    #expect(
      result.stderr == "bgsim: cannot write to standard output: the reading end of the pipe is closed\n")
  }

  @Test func traceOutIntoAFolderOrAMissingFolderSaysSoInOurWords() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try sandbox.write("s.json", Self.scenario)
    try sandbox.write("dir/keep", "")
    let intoFolder = try sandbox.run(["run", "s.json", "--quiet", "--trace-out", "dir"])
    #expect(intoFolder.status == 74)
    #expect(intoFolder.stderr == "bgsim: cannot write 'dir': it is a directory; give a file name\n")
    let missing = try sandbox.run(["run", "s.json", "--quiet", "--trace-out", "nowhere/t.jsonl"])
    #expect(missing.status == 74)
    #expect(missing.stderr == "bgsim: cannot write 'nowhere/t.jsonl': no such directory\n")
  }

  /// A small tmpfs filled to the last byte: the old trace and golden trace survive whole.
  @Test func aFullDiskNeverReplacesAFileByAPartialOne() throws {
    guard getuid() == 0 else {
      print("skipped: the full-disk test mounts a small tmpfs and needs root")
      return
    }
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    let disk = sandbox.directory.appendingPathComponent("disk").path
    try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
    guard shell("mount -t tmpfs -o size=64k tmpfs '\(disk)'") == 0 else {
      print("skipped: cannot mount a tmpfs here")
      return
    }
    defer { _ = shell("umount '\(disk)'") }
    try sandbox.write("disk/s.json", Self.scenario)
    let old = "{\"old\": \"golden trace\"}\n"
    try sandbox.write("disk/s.trace.jsonl", old)
    try sandbox.write("disk/t.jsonl", old)
    // Fill the disk: a file of zeros until the space runs out.
    _ = shell("dd if=/dev/zero of='\(disk)/filler' bs=1k 2>/dev/null")
    let check = try sandbox.run(["check", "disk/s.json", "--update-golden"])
    #expect(check.status == 74)
    #expect(check.stderr == "bgsim: cannot write 'disk/s.trace.jsonl': no space left on the device\n")
    #expect(try String(contentsOfFile: disk + "/s.trace.jsonl", encoding: .utf8) == old)
    let run = try sandbox.run(["run", "disk/s.json", "--quiet", "--trace-out", "disk/t.jsonl"])
    #expect(run.status == 74)
    #expect(run.stderr == "bgsim: cannot write 'disk/t.jsonl': no space left on the device\n")
    #expect(try String(contentsOfFile: disk + "/t.jsonl", encoding: .utf8) == old)
    let report = try sandbox.run(["report", "disk/s.json", "--out", "disk/reports"])
    #expect(report.status == 74)
    #expect(report.stderr.hasPrefix("bgsim: cannot write 'disk/reports/"))
    let left = try FileManager.default.contentsOfDirectory(atPath: disk).sorted()
    #expect(left.allSatisfy { !$0.hasPrefix(".bgsim-") }, "temporary files left behind: \(left)")
  }

  @Test func aDescriptionCannotPrintAFakeResultLine() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    let forged = Self.scenario.replacingOccurrences(
      of: #""name": "one-download","#,
      with: #""name": "evil\u001b[2J", "description": "x\n6 of 6 expectations hold","#)
    try sandbox.write("s.json", forged)
    let result = try sandbox.run(["run", "s.json"])
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.first == #"evil\u{1B}[2J (seed 1): x\n6 of 6 expectations hold"#)
    #expect(!lines.contains("6 of 6 expectations hold"))
    #expect(!result.stdout.contains("\u{1B}"))
  }

  @Test func aTaskNameWithControlsIsEscapedInTheTimeline() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    let forged = Self.scenario.replacingOccurrences(
      of: #""name": "a"}"#, with: #""name": "a\r\u001b]0;pwned\u0007"}"#
    )
    .replacingOccurrences(
      of: #"{"task": "a", "state": "completed"}"#, with: #"{"app": "wakes", "equals": 0}"#)
    try sandbox.write("s.json", forged)
    let result = try sandbox.run(["run", "s.json"])
    #expect(result.status == 0)
    #expect(result.stdout.contains(#"created a\r\u{1B}]0;pwned\u{7} "#))
    #expect(!result.stdout.contains("\u{1B}") && !result.stdout.contains("\r"))
  }

  @Test func aLongScenarioNameStillGetsAReportPage() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    let name = String(repeating: "long-name-", count: 30)
    try sandbox.write("s.json", Self.scenario.replacingOccurrences(of: "one-download", with: name))
    let result = try sandbox.run(["report", "s.json", "--out", "out"])
    #expect(result.status == 0)
    #expect(result.stderr == "")
    let pages = try FileManager.default.contentsOfDirectory(
      atPath: sandbox.directory.appendingPathComponent("out").path
    ).sorted()
    #expect(pages.count == 3 && pages.contains("index.html") && pages.contains("index.jsonl"))
    let page = pages.first { $0.hasPrefix("long-") } ?? ""
    #expect(page.hasPrefix(String(name.prefix(80)) + "-") && page.count == 80 + 1 + 16 + 5)
  }

  private func shell(_ command: String) -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    do {
      try process.run()
    } catch {
      return -1
    }
    process.waitUntilExit()
    return process.terminationStatus
  }
}
