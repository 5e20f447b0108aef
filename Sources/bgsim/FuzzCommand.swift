import Foundation
import FuzzKit
import SafeOutput
import ScenarioKit
import SimKernel
import SweepKit

/// `bgsim fuzz`: random scenarios checked against the engine's invariants, and the loader fuzz target.
enum FuzzCommand {
  static var command: Command {
    Command(
      name: "fuzz",
      synopsis:
        "bgsim fuzz [--seeds A-B] [--jobs N] [--time-budget D] [--minimize] [--out DIR] | FILE... | --loader [--iterations N] | --extreme [--seeds A-B] [--jobs N]",
      summary:
        "Random scenarios checked against the engine's invariants (and the loader against hostile input).",
      details: """
        Each seed gives a random but valid scenario (sessions, task mixes, network and power
        timelines, lifecycle actions, server changes and faults, buggy app behaviours). It is
        written as JSON, loaded back and run twice with the invariants checked after every
        event; the two traces must be byte-identical. A failing scenario is written to DIR as
        seed-N.json; with --minimize it is also shrunk to seed-N.min.json, a small scenario that
        fails the same way. Replay either with: bgsim run DIR/seed-N.json

        With FILE arguments, those scenarios are checked the same way instead (invariants on,
        run twice); with --minimize a failing one is shrunk to DIR/NAME.min.json.

        Options:
          --seeds A-B        seeds to try, inclusive (default 1-1000, or with --time-budget
                             every seed from 1 until the budget is spent); a single N is one seed
          --jobs N           seeds run on N threads (default: the number of cores); what is
                             printed and written does not depend on N
          --time-budget D    stop starting new seeds after D of wall time (a duration: 60s, 5m;
                             the seeds already handed to the threads, at most 32 each, finish)
          --minimize         shrink each failing scenario
          --out DIR          where failing scenarios go (default fuzz-failures)
          --loader           fuzz the scenario loader instead: random bytes and mutated valid
                             scenarios must load or be refused (exit 2), each within one second
          --iterations N     inputs for --loader (default 100000); --seeds A sets its seed
          --extreme          valid scenarios at the edges instead (sizes of 0 and 1 TiB, rates of
                             0 and 1 Tbps, reaction and redirect loops, dense random sections,
                             big counts, extreme policies): each must load, and end within its
                             budgets without a trap or a broken invariant, twice the same way
          -h, --help         show this help

        Exit codes: 0 nothing found, 1 a failure found, 2 bad arguments, 74 a failing scenario
        could not be written (it is still printed).
        See docs/fuzzing.md.
        """,
      flags: ["--minimize", "--loader", "--extreme"],
      options: [
        .init(name: "--seeds", valueName: "A-B"), .init(name: "--time-budget", valueName: "D"),
        .init(name: "--out", valueName: "DIR"), .init(name: "--iterations", valueName: "N"),
        .init(name: "--jobs", valueName: "N"),
      ],
      run: run)
  }

  static func run(_ arguments: ParsedArguments, _ command: Command) throws(CommandLineError) -> Int32 {
    func usage(_ message: String) -> CommandLineError { .usage(message, command: command.name) }
    if !arguments.positionals.isEmpty {
      if arguments.flags.contains("--loader") { throw usage("--loader takes no FILE") }
      if arguments.options["--jobs"] != nil { throw usage("--jobs goes with --seeds, not with FILE") }
      let out = arguments.options["--out"] ?? "fuzz-failures"
      try OutputGuard.refuseOverwritingInputs(
        outputs: arguments.positionals.map {
          ("--out", OutputGuard.inFolder(out, baseName($0) + ".min.json"))
        }, inputs: arguments.positionals, command: command)
      return try checkFiles(
        arguments.positionals, minimize: arguments.flags.contains("--minimize"),
        out: arguments.options["--out"] ?? "fuzz-failures")
    }
    // With a time budget and no --seeds, seeds run from 1 until the budget is spent, as
    // libFuzzer's -max_total_time does.
    let defaultSeeds = arguments.options["--time-budget"] != nil ? "1-\(Int64.max)" : "1-1000"
    let seeds = try parseSeeds(arguments.options["--seeds"] ?? defaultSeeds, usage)
    let out = arguments.options["--out"] ?? "fuzz-failures"
    if arguments.flags.contains("--loader") {
      let text = arguments.options["--iterations"] ?? "100000"
      guard let iterations = Int(text), iterations > 0 else {
        throw usage("--iterations expects a positive number, found '\(text)'")
      }
      if arguments.options["--jobs"] != nil { throw usage("--jobs does not go with --loader") }
      return fuzzLoader(iterations: iterations, seed: seeds.lowerBound, out: out)
    }
    if arguments.options["--iterations"] != nil { throw usage("--iterations goes with --loader") }
    let jobs = try arguments.jobs(usage)
    if arguments.flags.contains("--extreme") {
      if arguments.flags.contains("--minimize") { throw usage("--minimize does not go with --extreme") }
      return fuzzExtreme(seeds: seeds, jobs: jobs, out: out)
    }
    var budget: Double?
    if let text = arguments.options["--time-budget"] {
      do throws(LiteralError) {
        budget = try Literals.duration(text).seconds
      } catch {
        throw usage("--time-budget: \(error.message)")
      }
    }
    return fuzzEngine(
      seeds: seeds, jobs: jobs, budget: budget, minimize: arguments.flags.contains("--minimize"), out: out)
  }

  static func parseSeeds(
    _ text: String, _ usage: (String) -> CommandLineError
  ) throws(CommandLineError) -> ClosedRange<UInt64> {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count <= 2, let low = UInt64(parts[0]), let high = UInt64(parts.last!), low <= high else {
      throw usage("--seeds expects A-B with A <= B (or a single seed N), found '\(text)'")
    }
    return low...high
  }

  static func fuzzEngine(
    seeds: ClosedRange<UInt64>, jobs: Int, budget: Double?, minimize: Bool, out: String
  ) -> Int32 {
    let clock = ContinuousClock()
    let start = clock.now
    var failures = 0
    var unwritten = false
    let tried = ParallelRunner.forEachSeed(
      in: seeds, jobs: jobs, keepGoing: { budget.map { seconds(clock.now - start) < $0 } ?? true },
      { FuzzRunner.check(seed: $0) }
    ) { seed, failure in
      guard let failure else { return }
      failures += 1
      if !report(failure, seed: seed, minimize: minimize, out: out) { unwritten = true }
    }
    let elapsed = seconds(clock.now - start)
    let rate = elapsed > 0 ? Double(tried) / elapsed : 0
    let last = seeds.lowerBound + UInt64(max(tried, 1) - 1)
    Console.out(
      "fuzzed \(tried) seeds (\(seeds.lowerBound)-\(last)) in \(String(format: "%.2f", elapsed)) s "
        + "(\(String(format: "%.1f", rate)) seeds/s, \(jobs) jobs): \(failures) failing")
    if unwritten { return ExitCode.ioError }
    return failures > 0 ? ExitCode.expectationFailed : ExitCode.ok
  }

  /// Checks scenario files with invariants on, twice each; exit 2 if one is invalid.
  static func checkFiles(_ paths: [String], minimize: Bool, out: String) throws(CommandLineError) -> Int32 {
    var failing = 0
    var unwritten = false
    for path in paths {
      let scenario: Scenario
      do {
        scenario = try ScenarioLoader.load(path: path)
      } catch {
        throw .invalidScenario(error)
      }
      let json = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ScenarioJSONWriter.write(scenario)
      guard let failure = FuzzRunner.checkLoaded(scenario, json: json) else {
        Console.out("ok    \(TerminalText.escape(path))")
        continue
      }
      failing += 1
      let name = baseName(path)
      Console.out("FAIL  \(TerminalText.escape(path)): \(failure.signature)")
      for line in failure.details.split(separator: "\n") { Console.out("      \(line)") }
      if minimize, !shrink(failure, name: name, out: out) { unwritten = true }
    }
    if unwritten { return ExitCode.ioError }
    return failing > 0 ? ExitCode.expectationFailed : ExitCode.ok
  }

  /// NAME of a FILE argument: its minimised scenario is written as DIR/NAME.min.json.
  static func baseName(_ path: String) -> String {
    URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
  }

  /// Prints a failing seed and writes its scenario (and its minimised one); false when a file
  /// could not be written.
  static func report(_ failure: FuzzFailure, seed: UInt64, minimize: Bool, out: String) -> Bool {
    Console.out("FAIL  seed \(seed): \(failure.signature)")
    for line in failure.details.split(separator: "\n") { Console.out("      \(line)") }
    guard let path = write(failure.json, to: out, name: "seed-\(seed).json") else { return false }
    Console.out("      wrote \(path) (\(failure.scenario.itemCount) items)")
    return minimize ? shrink(failure, name: "seed-\(seed)", out: out) : true
  }

  /// Minimises a failure and writes the result; false when it could not be written.
  static func shrink(_ failure: FuzzFailure, name: String, out: String) -> Bool {
    var minimizer = Minimizer(signature: failure.signature)
    let small = minimizer.minimize(failure)
    guard let minPath = write(small.json, to: out, name: "\(name).min.json") else { return false }
    Console.out(
      "      minimised in \(minimizer.attempts) runs to \(minPath) (\(small.scenario.itemCount) items): "
        + (small.details.split(separator: "\n").first.map(String.init) ?? ""))
    return true
  }

  /// Writes `text` to DIR/name, creating DIR; returns the path, or nil after saying why it could
  /// not be written (the run goes on, and ends with exit 74).
  static func write(_ text: String, to directory: String, name: String) -> String? {
    let path = directory + "/" + name
    do throws(FileWriteError) {
      try AtomicFile.createFolder(directory)
      try AtomicFile.write(text, to: path)
    } catch {
      Console.error("bgsim: \(error)")
      return nil
    }
    return path
  }

  /// `--extreme`: each seed's edge-case scenario must end within its budgets, cleanly.
  static func fuzzExtreme(seeds: ClosedRange<UInt64>, jobs: Int, out: String) -> Int32 {
    let clock = ContinuousClock()
    let start = clock.now
    var stopped = 0
    var failures = 0
    var unwritten = false
    let tried = ParallelRunner.forEachSeed(in: seeds, jobs: jobs, { ExtremeScenarios.outcome(seed: $0) }) {
      seed, outcome in
      switch outcome {
      case .clean: break
      case .budgetStopped: stopped += 1
      case .failed(let failure):
        failures += 1
        Console.out("FAIL  extreme seed \(seed): \(failure.signature)")
        for line in failure.details.split(separator: "\n") {
          Console.out("      \(TerminalText.escape(String(line)))")
        }
        if let path = write(failure.json, to: out, name: "extreme-\(seed).json") {
          Console.out("      wrote \(TerminalText.escape(path))")
        } else {
          unwritten = true
        }
      }
    }
    let elapsed = seconds(clock.now - start)
    Console.out(
      "extreme: \(tried) seeds (\(seeds.lowerBound)-\(seeds.upperBound)) in \(String(format: "%.2f", elapsed)) s "
        + "with \(jobs) jobs, "
        + "\(stopped) stopped by a budget: \(failures) failing")
    if unwritten { return ExitCode.ioError }
    return failures > 0 ? ExitCode.expectationFailed : ExitCode.ok
  }

  static func fuzzLoader(iterations: Int, seed: UInt64, out: String) -> Int32 {
    var fuzzer = LoaderFuzzer(seed: seed)
    let report = fuzzer.run(iterations: iterations) { so in
      Console.error(
        "  \(so.iterations) inputs, slowest \(String(format: "%.1f", so.slowestSeconds * 1e3)) ms")
    }
    var unwritten = false
    for finding in report.findings {
      let path = write(
        String(decoding: finding.input, as: UTF8.self), to: out,
        name: "loader-\(seed)-\(finding.iteration).json")
      if path == nil { unwritten = true }
      Console.out("FAIL  input \(finding.iteration): \(finding.problem) (wrote \(path ?? "nothing"))")
    }
    let rate = report.totalSeconds > 0 ? Double(report.iterations) / report.totalSeconds : 0
    Console.out(
      "loader: \(report.iterations) inputs (\(report.loaded) loaded, \(report.rejected) refused with exit 2) in "
        + "\(String(format: "%.2f", report.totalSeconds)) s (\(String(format: "%.0f", rate)) inputs/s), "
        + "slowest \(String(format: "%.2f", report.slowestSeconds * 1e3)) ms: \(report.findings.count) failing"
    )
    if unwritten { return ExitCode.ioError }
    return report.findings.isEmpty ? ExitCode.ok : ExitCode.expectationFailed
  }

  static func seconds(_ d: Duration) -> Double {
    let (s, atto) = d.components
    return Double(s) + Double(atto) / 1e18
  }
}
