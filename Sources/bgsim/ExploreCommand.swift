import ExplorationKit
import Foundation
import SafeOutput
import ScenarioKit
import SimKernel
import SweepKit

/// `bgsim explore FILE [--seeds A-B] [--jobs N] [--shard K/N] [--out DIR]`: the exploration of
/// docs/exploring.md for a scenario's scripted app.
enum ExploreCommand {
  static var command: Command {
    Command(
      name: "explore", synopsis: "bgsim explore FILE [--seeds A-B] [--jobs N] [--shard K/N] [--out DIR]",
      summary:
        "Inject the faults iOS allows at every kill point and per seed; report what the app got wrong.",
      details: """
        Arguments:
          FILE             a scenario whose app is scripted (app.behavior)

        Options:
          --seeds A-B      the seeds that draw random faults: 1-100 (default), or 1-10,42; the
                           world itself is played with the scenario's seed
          --jobs N         worker threads (default: the number of cores); findings do not depend on it
          --shard K/N      run only part K of N of the kill points and seeds (1 <= K <= N), and
                           write DIR/shard.json; join the shards with 'bgsim explore-merge'
          --out DIR        where to write (default: explore-NAME, NAME the scenario's)
          -h, --help       show this help

        Plays the scenario once without faults, then terminates the app at every kill point (after
        each app callback and before each pending timer while the app is not in the foreground)
        and injects random force quits, network faults and reboots per seed, each run twice. The
        outcome compared with the run without faults is what the app was told: for each task, its
        last completion and whether a file was delivered, read after the user opens the app at the
        scenario's duration and one more minute. Writes DIR/findings.json, one replay scenario
        per finding (DIR/replay-N-RULE.json, runnable with 'bgsim run') and DIR/summary.txt.

        Exit codes: 0 no finding, 1 a finding, 2 an invalid scenario or usage, 74 DIR could not
        be written.
        See docs/exploring.md.
        """,
      options: [
        .init(name: "--seeds", valueName: "A-B"), .init(name: "--jobs", valueName: "N"),
        .init(name: "--shard", valueName: "K/N"), .init(name: "--out", valueName: "DIR"),
      ], run: run)
  }

  static func run(_ arguments: ParsedArguments, _ command: Command) throws(CommandLineError) -> Int32 {
    func usage(_ message: String) -> CommandLineError { .usage(message, command: command.name) }
    guard arguments.positionals.count == 1, let file = arguments.positionals.first else {
      throw usage(
        arguments.positionals.isEmpty
          ? "missing the scenario FILE" : "expected one scenario FILE, found \(arguments.positionals.count)")
    }
    let jobs = try arguments.jobs(usage)
    let seedsText = arguments.options["--seeds"] ?? "1-100"
    let seeds: [UInt64]
    do throws(SweepError) {
      seeds = try SeedList.parse(seedsText)
    } catch {
      throw usage(error.message)
    }
    var shard: Shard?
    if let text = arguments.options["--shard"] {
      guard let parsed = Shard(text) else {
        throw usage("--shard expects K/N with 1 <= K <= N, such as 2/4, found '\(text)'")
      }
      shard = parsed
    }
    let scenario: Scenario
    do {
      scenario = try ScenarioLoader.load(path: file)
    } catch {
      throw .invalidScenario(error)
    }
    let out = arguments.options["--out"] ?? "explore-\(scenario.name)"
    // The files every exploration writes, before it runs; the replays' names, once known.
    let fixedNames = ["findings.json", "summary.txt"] + (shard == nil ? [] : ["shard.json"])
    try refuseOverwriting(file, with: fixedNames, in: out, command: command)
    let bytes = FileManager.default.contents(atPath: file).map { [UInt8]($0) } ?? []
    let plan = ExplorationPlan(seeds: seeds, jobs: jobs, shard: shard, worldSeed: scenario.seed)
    let report = Explorer.explore(ScenarioExploration.subject(scenario), plan: plan, property: nil)
    let result = ExploreResult(
      report: report, scenario: file, scenarioSHA256: SHA256.hex(bytes), version: Usage.build.version,
      seeds: seedsText, shard: shard)
    let files = result.files
    try refuseOverwriting(file, with: files.map(\.name), in: out, command: command)
    try write(files, to: out)
    let replays = files.map(\.name).filter { $0.hasPrefix("replay-") }
    Console.out(
      "\(report.killPoints) kill points (\(report.killPointsRun) run), \(report.runs) runs: "
        + "\(report.findings.count) finding\(report.findings.count == 1 ? "" : "s")"
        + report.findings.map {
          "\n  \($0.rule) (reached by \($0.reachedBy)): "
            + ($0.faults.isEmpty ? "no fault" : $0.faults.map(\.description).joined(separator: "; "))
        }
        .joined()
        + "\nwrote \(TerminalText.escape(out))/{findings.json,summary.txt\(shard == nil ? "" : ",shard.json")"
        + "\(replays.map { "," + $0 }.joined())}"
    )
    return report.findings.isEmpty ? ExitCode.ok : ExitCode.expectationFailed
  }

  /// Refuses (exit 2) when one of `names` in `out` is the scenario `file` itself: `bgsim explore
  /// x/findings.json --out x` replaced the scenario with the findings.
  static func refuseOverwriting(
    _ file: String, with names: [String], in out: String, command: Command
  ) throws(CommandLineError) {
    try OutputGuard.refuseOverwritingInputs(
      outputs: names.map { ("--out", OutputGuard.inFolder(out, $0)) }, inputs: [file], command: command)
  }

  /// Writes `files` into the folder `out` (created if missing), each atomically.
  static func write(_ files: [(name: String, text: String)], to out: String) throws(CommandLineError) {
    do {
      try AtomicFile.createFolder(out)
      for (name, text) in files {
        try AtomicFile.write(text, to: (out as NSString).appendingPathComponent(name))
      }
    } catch {
      throw .cannotWrite(error)
    }
  }
}
