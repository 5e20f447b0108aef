import Foundation
import Testing

/// `sweep-merge` as a team on a cluster meets it: shards of a changed scenario, another grid or
/// another bgsim are refused, spellings of one path are not; damaged shard folders are named.
@Suite struct SweepMergeCommandTests {
  static let grid = ["--param", "rateLimiter.growth=1.5,3", "--seeds", "1-4"]

  /// A sandbox with `chain.json` and its two shards in `shard-1` and `shard-2`.
  func twoShards(first: String = "chain.json", second: String = "chain.json") throws -> BgsimSandbox {
    let sandbox = try BgsimSandbox()
    try sandbox.write("chain.json", SweepCommandTests.scenario)
    for (k, file) in [(1, first), (2, second)] {
      let result = try sandbox.run(
        ["sweep", file] + Self.grid + ["--shard", "\(k)/2", "--out", "shard-\(k)"])
      #expect(result.status == 0, "\(result.stderr)")
    }
    return sandbox
  }

  func text(_ sandbox: BgsimSandbox, _ path: String) throws -> String {
    try String(contentsOf: sandbox.directory.appendingPathComponent(path), encoding: .utf8)
  }

  /// Replaces the first `a` by `b` in the sandbox file `path`.
  func edit(_ sandbox: BgsimSandbox, _ path: String, _ a: String, _ b: String) throws {
    let old = try text(sandbox, path)
    let range = try #require(old.range(of: a), "'\(a)' not in \(path)")
    try sandbox.write(path, old.replacingCharacters(in: range, with: b))
  }

  @Test func differentSpellingsOfOnePathMerge() throws {
    let sandbox = try twoShards(first: "./chain.json", second: "chain.json")
    defer { sandbox.remove() }
    let merged = try sandbox.run(["sweep-merge", "shard-2", "shard-1", "--out", "merged"])
    #expect(merged.status == 0, "\(merged.stderr)")
    let whole = try sandbox.run(["sweep", "chain.json"] + Self.grid + ["--out", "whole"])
    #expect(whole.status == 0)
    #expect(try text(sandbox, "merged/runs.csv") == text(sandbox, "whole/runs.csv"))
    let manifest = try text(sandbox, "merged/sweep.json")
    #expect(manifest.contains(#""scenario": "./chain.json""#))  // shard 1's spelling
    #expect(manifest.contains(#"{"shard": "1/2", "build": "#))
  }

  @Test func aShardOfAModifiedScenarioIsRefused() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try sandbox.write("chain.json", SweepCommandTests.scenario)
    #expect(
      try sandbox.run(["sweep", "chain.json"] + Self.grid + ["--shard", "1/2", "--out", "a"]).status == 0)
    try edit(sandbox, "chain.json", #""duration": "2d""#, #""duration": "3d""#)
    #expect(
      try sandbox.run(["sweep", "chain.json"] + Self.grid + ["--shard", "2/2", "--out", "b"]).status == 0)
    let merged = try sandbox.run(["sweep-merge", "a", "b", "--out", "merged"])
    #expect(merged.status == 2)
    #expect(merged.stderr.hasPrefix("bgsim: b and a are not shards of one sweep: the scenario's SHA-256 is "))
    #expect(merged.stderr.contains("in b/sweep.json but "))
    #expect(merged.stderr.contains("the scenario file was changed between shards"))
    #expect(!FileManager.default.fileExists(atPath: sandbox.directory.appendingPathComponent("merged").path))
  }

  @Test func aShardOfAnotherGridIsRefused() throws {
    let sandbox = try twoShards()
    defer { sandbox.remove() }
    let other = [
      "--param", "rateLimiter.growth=1.5,2", "--seeds", "1-4", "--shard", "2/2", "--out", "shard-2",
    ]
    #expect(try sandbox.run(["sweep", "chain.json"] + other).status == 0)
    let merged = try sandbox.run(["sweep-merge", "shard-1", "shard-2"])
    #expect(merged.status == 2)
    #expect(
      merged.stderr.contains(
        "the grid is 'rateLimiter.growth=1.5,2' in shard-2/sweep.json but 'rateLimiter.growth=1.5,3' in shard-1/sweep.json"
      ),
      "\(merged.stderr)")
  }

  @Test func aShardOfAnotherVersionIsRefused() throws {
    let sandbox = try twoShards()
    defer { sandbox.remove() }
    try edit(sandbox, "shard-2/sweep.json", #""version": "0.1.0""#, #""version": "0.0.9""#)
    let merged = try sandbox.run(["sweep-merge", "shard-1", "shard-2"])
    #expect(merged.status == 2)
    #expect(
      merged.stderr.contains("bgsim's version is 0.0.9 in shard-2/sweep.json but 0.1.0 in shard-1/sweep.json")
    )
    // Both shards of another version: refused by this bgsim, which recomputes the summary.
    try edit(sandbox, "shard-1/sweep.json", #""version": "0.1.0""#, #""version": "0.0.9""#)
    let both = try sandbox.run(["sweep-merge", "shard-1", "shard-2"])
    #expect(
      both.stderr
        == "bgsim: shard-1 was written by bgsim 0.0.9 and this is bgsim 0.1.0; merge with the bgsim that ran the shards\n"
    )
  }

  /// The cases of the hostile-input review: each once trapped, ran away or blamed the wrong shard.
  @Test(arguments: [
    ("shard-1/sweep.json", #""runs": 8"#, #""runs": -1"#, "bgsim: shard-1/sweep.json: runs (line "),
    ("shard-2/sweep.json", #""runs": 8"#, #""runs": 9e18"#, "bgsim: shard-2/sweep.json: runs (line "),
    (
      "shard-*/sweep.json", #""values": ["1.5", "3"]}"#,
      #""values": ["1.5", "3"]}, {"key": "rateLimiter.firstDelay", "values": ["1m"]}"#,
      "bgsim: shard-1/runs.csv: line 1: the header has 31 columns where this sweep has 32: column 3 is 'seed' where this sweep has 'rateLimiter.firstDelay'"
    ),
    (
      "shard-1/runs.csv", "lintRules\n", "lintRu\n",
      "bgsim: shard-1/runs.csv: line 1: the header has 31 columns where this sweep has 31: column 31 is 'lintRu' where this sweep has 'lintRules' (is the file cut short, or from another sweep?)\n"
    ),
    (
      "shard-1/runs.csv", ",lintRules\n", "\n",
      "bgsim: shard-1/runs.csv: line 1: the header has 30 columns where this sweep has 31: it ends before column 31, 'lintRules'"
    ),
    (
      "shard-2/runs.csv", "\n1,1.5,2,", "\n1,2.5,2,",
      "bgsim: shard-2/runs.csv: line 2: run 1 has rateLimiter.growth '2.5', but the grid gives it '1.5'"
    ),
    (
      "shard-2/runs.csv", "\n1,1.5,2,", "\n1,1.5,7,",
      "bgsim: shard-2/runs.csv: line 2: run 1 has seed '7', but the grid gives it seed 2"
    ),
    (
      "shard-1/runs.csv", "\n0,1.5,1,2,", "\n0,1.5,1,-2,",
      "bgsim: shard-1/runs.csv: line 2: tasks is '-2', not a value bgsim sweep writes there"
    ),
    (
      "shard-1/runs.csv", "\n0,1.5,1,2,", "\n0,1.5,1,2,2,",
      "bgsim: shard-1/runs.csv: line 2: 32 cells, expected 31"
    ),
    (
      "shard-1/runs.csv", "\n0,1.5,1,", "\n2,1.5,1,",
      "bgsim: shard-1/runs.csv: line 2: run '2', expected run 0"
    ),
    (
      "shard-1/sweep.json", #""shard": "1/2""#, #""shard": "2/2""#,
      "bgsim: shard 2/2 is given twice: shard-1 and shard-2"
    ),
    (
      "shard-1/sweep.json", #""format": 2"#, #""format": 2, "extra": 1"#,
      "bgsim: shard-1/sweep.json: unknown field 'extra'"
    ),
  ])
  func damagedShardsAreNamed(file: String, original: String, replacement: String, message: String) throws {
    let sandbox = try twoShards()
    defer { sandbox.remove() }
    for k in 1...2 where file.hasPrefix("shard-*") || file.hasPrefix("shard-\(k)") {
      try edit(sandbox, "shard-\(k)" + file.drop { $0 != "/" }, original, replacement)
    }
    let merged = try sandbox.run(["sweep-merge", "shard-1", "shard-2", "--out", "merged"])
    #expect(merged.status == 2)
    #expect(merged.stderr.hasPrefix(message), "\(merged.stderr)")
    #expect(merged.stderr.count < 1000)
    #expect(!FileManager.default.fileExists(atPath: sandbox.directory.appendingPathComponent("merged").path))
  }

  @Test func aTruncatedRunsFileIsRefused() throws {
    let sandbox = try twoShards()
    defer { sandbox.remove() }
    let runs = try text(sandbox, "shard-2/runs.csv")
    try sandbox.write("shard-2/runs.csv", String(runs.dropLast(30)))
    let merged = try sandbox.run(["sweep-merge", "shard-1", "shard-2"])
    #expect(merged.stderr == "bgsim: shard-2/runs.csv: does not end with a line break; was it cut short?\n")
    try sandbox.write(
      "shard-2/runs.csv", String(runs.split(separator: "\n").dropLast().joined(separator: "\n") + "\n"))
    let short = try sandbox.run(["sweep-merge", "shard-1", "shard-2"])
    #expect(
      short.stderr == "bgsim: shard-2/runs.csv: 3 runs; shard 2/2 of 8 runs holds 4 (was it cut short?)\n")
  }

  /// A sweep whose writing fails leaves no `sweep.json`, even where an earlier sweep had left
  /// a complete set: the folder can never pass for a finished sweep.
  @Test func aFailedWriteLeavesNoSweepJSON() throws {
    let sandbox = try twoShards()
    defer { sandbox.remove() }
    let runs = sandbox.directory.appendingPathComponent("shard-2/runs.csv")
    try FileManager.default.removeItem(at: runs)
    try FileManager.default.createDirectory(at: runs, withIntermediateDirectories: false)
    let again = try sandbox.run(
      ["sweep", "chain.json"] + Self.grid + ["--shard", "2/2", "--out", "shard-2"])
    #expect(again.status == 74)
    #expect(
      again.stderr.hasPrefix("bgsim: cannot write 'shard-2/runs.csv': it is a directory; give a file name\n"),
      "\(again.stderr)")
    let left = try FileManager.default.contentsOfDirectory(
      atPath: sandbox.directory.appendingPathComponent("shard-2").path)
    #expect(left == ["runs.csv"])  // the blocking folder; no sweep.json, no temporary file
    let merged = try sandbox.run(["sweep-merge", "shard-1", "shard-2"])
    #expect(
      merged.stderr.hasPrefix(
        "bgsim: shard-2: no sweep.json; the directory is not a finished bgsim sweep --out"))
  }

  /// On a full disk (a 64 KiB tmpfs; needs root and mount, skipped otherwise) the sweep fails
  /// with a message and leaves no `sweep.json` and no temporary files.
  @Test func aFullDiskLeavesNoSweepJSON() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try sandbox.write("chain.json", SweepCommandTests.scenario)
    let disk = sandbox.directory.appendingPathComponent("disk")
    try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: false)
    guard getuid() == 0, run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", disk.path]) == 0 else {
      print("skipped aFullDiskLeavesNoSweepJSON: mounting a small tmpfs needs root and mount")
      return
    }
    defer { _ = run("/bin/umount", [disk.path]) }
    let result = try sandbox.run(
      ["sweep", "chain.json", "--param", "rateLimiter.growth=2", "--seeds", "1-600", "--out", "disk/out"])
    #expect(result.status == 74)
    #expect(result.stderr.contains("no space left on the device"), "\(result.stderr)")
    let left = try FileManager.default.contentsOfDirectory(atPath: disk.appendingPathComponent("out").path)
    #expect(left.isEmpty, "\(left)")
  }

  func run(_ tool: String, _ arguments: [String]) -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    guard (try? process.run()) != nil else { return -1 }
    process.waitUntilExit()
    return process.terminationStatus
  }
}
