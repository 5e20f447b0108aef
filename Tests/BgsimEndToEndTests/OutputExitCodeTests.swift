import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One exit code per cause (issue 28): an output that cannot be written ends every command
/// with 74, `sweep`, `sweep-merge`, `explore` and `explore-merge` included, never with 2 (a usage error).
@Suite struct OutputExitCodeTests {
  @Test func aFileGivenAsTheOutFolderIs74InEveryCommand() throws {
    let sandbox = try CalibrateCommandTests.sandbox()
    defer { sandbox.remove() }
    try sandbox.write("chain.json", SweepCommandTests.scenario)
    try sandbox.write("s.json", OutputSafetyTests.scenario)
    try sandbox.write("file", "not a folder\n")
    let grid = SweepMergeCommandTests.grid
    for k in 1...2 {
      _ = try sandbox.run(["sweep", "chain.json"] + grid + ["--shard", "\(k)/2", "--out", "shard-\(k)"])
      _ = try sandbox.run([
        "explore", "chain.json", "--seeds", "1-2", "--shard", "\(k)/2", "--out", "ex-\(k)",
      ])
    }
    let commands: [[String]] = [
      ["sweep", "chain.json"] + grid + ["--out", "file"],
      ["sweep-merge", "shard-1", "shard-2", "--out", "file"],
      [
        "calibrate", "world.json", "--observed", "observed.jsonl", "--param", "rateLimiter.growth=2..3",
        "--out", "file",
      ],
      ["report", "s.json", "--out", "file"],
      ["explore", "chain.json", "--seeds", "1-2", "--out", "file"],
      ["explore-merge", "ex-1", "ex-2", "--out", "file"],
      ["sweep", "chain.json"] + grid + ["--out", "file/sub"],
    ]
    for arguments in commands {
      let result = try sandbox.run(arguments)
      #expect(result.status == 74, "\(arguments): \(result.stderr)")
      #expect(result.stderr.contains("'file' is a file, not a folder"), "\(arguments): \(result.stderr)")
    }
    #expect(
      try String(contentsOf: sandbox.directory.appendingPathComponent("file"), encoding: .utf8)
        == "not a folder\n")
  }

  /// A full device as the output: written through, so the write itself fails with ENOSPC.
  @Test func aFullDeviceIs74() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try sandbox.write("s.json", OutputSafetyTests.scenario)
    guard let full = OutputTargetEndToEndTests.device(like: "/dev/full", in: sandbox.directory) else {
      print("skipped: this system has no /dev/full")
      return
    }
    for arguments in [
      ["run", "s.json", "--quiet", "--trace-out", full], ["check", "s.json", "--junit", full],
    ] {
      let result = try sandbox.run(arguments)
      #expect(result.status == 74, "\(arguments): \(result.stderr)")
      #expect(result.stderr.hasSuffix("': no space left on the device\n"), "\(result.stderr)")
      #expect(OutputTargetEndToEndTests.kind(full) == S_IFCHR)
    }
  }

  /// Calibration onto a full disk (a 64 KiB tmpfs; needs root and mount, skipped otherwise).
  @Test func aFullDiskIs74ForCalibrate() throws {
    let sandbox = try CalibrateCommandTests.sandbox()
    defer { sandbox.remove() }
    let disk = sandbox.directory.appendingPathComponent("disk")
    try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: false)
    guard getuid() == 0, shell("mount -t tmpfs -o size=64k tmpfs '\(disk.path)'") == 0 else {
      print("skipped: mounting a small tmpfs needs root and mount")
      return
    }
    defer { _ = shell("umount '\(disk.path)'") }
    _ = shell("mkdir '\(disk.path)/fit' && dd if=/dev/zero of='\(disk.path)/filler' bs=1k 2>/dev/null")
    let result = try sandbox.run([
      "calibrate", "world.json", "--observed", "observed.jsonl", "--param", "rateLimiter.growth=2..3",
      "--out",
      "disk/fit",
    ])
    #expect(result.status == 74, "\(result.stderr)")
    #expect(result.stderr.contains("no space left on the device"), "\(result.stderr)")
  }

  private func shell(_ command: String) -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    guard (try? process.run()) != nil else { return -1 }
    process.waitUntilExit()
    return process.terminationStatus
  }
}
