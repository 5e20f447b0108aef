import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An output that is the same file as an input is refused with exit 2 before anything runs
/// (issue 28), compared by device and inode: spellings and links of one file are caught.
@Suite struct OutputClashTests {
  static let scenario = OutputSafetyTests.scenario

  func text(_ sandbox: BgsimSandbox, _ path: String) throws -> String {
    try String(contentsOf: sandbox.directory.appendingPathComponent(path), encoding: .utf8)
  }

  @Test func runRefusesATraceOverItsScenarioInAnySpelling() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try sandbox.write("x.json", Self.scenario)
    #expect(symlink("x.json", sandbox.directory.appendingPathComponent("alias.jsonl").path) == 0)
    for output in ["x.json", "./x.json", "alias.jsonl", sandbox.directory.path + "/x.json"] {
      let result = try sandbox.run(["run", "x.json", "--trace-out", output])
      #expect(result.status == 2, "\(output)")
      #expect(result.stdout == "", "nothing runs before the refusal")
      #expect(result.stderr.hasPrefix("bgsim: --trace-out '\(output)' "), "\(result.stderr)")
      #expect(result.stderr.contains("writing it would destroy that input: give another output name\n"))
      #expect(try text(sandbox, "x.json") == Self.scenario)
    }
    let same = try sandbox.run(["run", "x.json", "--trace-out", "x.json"])
    #expect(same.stderr.hasPrefix("bgsim: --trace-out 'x.json' is an input of this command;"))
    let alias = try sandbox.run(["run", "x.json", "--trace-out", "alias.jsonl"])
    #expect(
      alias.stderr.hasPrefix("bgsim: --trace-out 'alias.jsonl' is the same file as the input 'x.json';"))
  }

  @Test func checkRefusesAJUnitFileOverAScenarioOrAGoldenTrace() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try sandbox.write("d/x.json", Self.scenario)
    let junit = try sandbox.run(["check", "d", "--junit", "d/x.json"])
    #expect(junit.status == 2)
    #expect(junit.stdout == "")
    #expect(
      junit.stderr.hasPrefix("bgsim: --junit 'd/x.json' is an input of this command;"), "\(junit.stderr)")
    #expect(try text(sandbox, "d/x.json") == Self.scenario)
    try sandbox.write("d/x.trace.jsonl", "golden\n")
    let golden = try sandbox.run(["check", "d", "--junit", "d/x.trace.jsonl"])
    #expect(golden.status == 2)
    #expect(try text(sandbox, "d/x.trace.jsonl") == "golden\n")
  }

  @Test func reportRefusesAnIndexOverAnInput() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try sandbox.write("out/index.html", Self.scenario)
    let result = try sandbox.run(["report", "out/index.html", "--out", "out"])
    #expect(result.status == 2)
    #expect(
      result.stderr.hasPrefix("bgsim: --out 'out/index.html' is an input of this command;"),
      "\(result.stderr)")
    #expect(try text(sandbox, "out/index.html") == Self.scenario)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path + "/out") == ["index.html"])
  }

  @Test func sweepAndSweepMergeRefuseAnOutFolderHoldingTheirInputs() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try sandbox.write("chain.json", SweepCommandTests.scenario)
    let grid = SweepMergeCommandTests.grid
    for k in 1...2 {
      let shard = try sandbox.run(
        ["sweep", "chain.json"] + grid + ["--shard", "\(k)/2", "--out", "shard-\(k)"])
      #expect(shard.status == 0, "\(shard.stderr)")
    }
    let runs = try text(sandbox, "shard-1/runs.csv")
    let merge = try sandbox.run(["sweep-merge", "shard-1", "shard-2", "--out", "shard-1"])
    #expect(merge.status == 2)
    #expect(
      merge.stderr.hasPrefix("bgsim: --out 'shard-1/runs.csv' is an input of this command;"),
      "\(merge.stderr)")
    #expect(try text(sandbox, "shard-1/runs.csv") == runs)
    #expect(FileManager.default.fileExists(atPath: sandbox.directory.path + "/shard-1/sweep.json"))
    // The scenario itself named runs.csv in the --out folder.
    try sandbox.write("w/runs.csv", SweepCommandTests.scenario)
    let sweep = try sandbox.run(["sweep", "w/runs.csv"] + grid + ["--out", "w"])
    #expect(sweep.status == 2)
    #expect(try text(sandbox, "w/runs.csv") == SweepCommandTests.scenario)
  }

  /// `explore`'s scenario in its --out folder under a name it writes: refused before the
  /// exploration runs for the names every exploration writes, and before anything is written
  /// for a replay's name, known once the findings are.
  @Test func exploreRefusesAnOutFolderHoldingItsScenario() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    let scenario = ExploreCommandTests.unnamed
    try sandbox.write("x/findings.json", scenario)
    let fixed = try sandbox.run(["explore", "x/findings.json", "--seeds", "1-2", "--out", "x"])
    #expect(fixed.status == 2)
    #expect(fixed.stdout == "", "nothing runs before the refusal")
    #expect(
      fixed.stderr.hasPrefix("bgsim: --out 'x/findings.json' is an input of this command;"), "\(fixed.stderr)"
    )
    #expect(try text(sandbox, "x/findings.json") == scenario)
    try sandbox.write("y/replay-2-sessionNotRecreated.json", scenario)
    let replay = try sandbox.run([
      "explore", "y/replay-2-sessionNotRecreated.json", "--seeds", "1-2", "--out", "y",
    ])
    #expect(replay.status == 2)
    #expect(
      replay.stderr.hasPrefix(
        "bgsim: --out 'y/replay-2-sessionNotRecreated.json' is an input of this command;"),
      "\(replay.stderr)")
    #expect(try text(sandbox, "y/replay-2-sessionNotRecreated.json") == scenario)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path + "/y")
        == ["replay-2-sessionNotRecreated.json"])
  }

  @Test func calibrateRefusesAnOutFolderHoldingTheLog() throws {
    let sandbox = try CalibrateCommandTests.sandbox()
    defer { sandbox.remove() }
    let log = try text(sandbox, "observed.jsonl")
    try sandbox.write("fit/fit.json", log)
    let result = try sandbox.run([
      "calibrate", "world.json", "--observed", "fit/fit.json", "--param", "rateLimiter.growth=1.5..5",
      "--out", "fit",
    ])
    #expect(result.status == 2)
    #expect(
      result.stderr.hasPrefix("bgsim: --out 'fit/fit.json' is an input of this command;"), "\(result.stderr)")
    #expect(try text(sandbox, "fit/fit.json") == log)
  }
}
