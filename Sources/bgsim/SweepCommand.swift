import Foundation
import SafeOutput
import ScenarioKit
import SweepKit

/// `bgsim sweep FILE --param KEY=V1,V2 ... [--seeds A-B] [--jobs N] [--shard K/N] [--out DIR]`.
enum SweepCommand {
  static let defaultCharts = ["allDoneSeconds", "wakes"]

  static var command: Command {
    Command(
      name: "sweep",
      synopsis:
        "bgsim sweep FILE --param KEY=V1,V2,... [--param ...] [--seeds A-B] [--jobs N] [--shard K/N] [--out DIR] [--chart M,...]",
      summary: "Run a scenario over a grid of policy values and seeds; write CSV, Markdown and SVG.",
      details: """
        Arguments:
          FILE             the scenario, a JSON file (see docs/scenario-format.md); its `random` section,
                           if any, is drawn from each run's seed

        Options:
          --param KEY=V1,V2,...
                           a policy knob (dotted name, `policy.` optional) and its values; repeat for
                           more knobs: the grid is every combination (see 'bgsim policy --defaults')
          --seeds A-B      the seeds of every grid point: 1-100, or 1-10,42 (default: the scenario's)
          --jobs N         worker threads, one simulation each (default: the number of cores);
                           the output is the same for any N
          --shard K/N      run only runs K-1, K-1+N, K-1+2N, ... of the grid (1 <= K <= N), for job
                           arrays; join the shards' directories with 'bgsim sweep-merge'
          --out DIR        where to write (default: sweep-NAME, NAME the scenario's name)
          --chart M,...    runs.csv metrics to chart (default: allDoneSeconds,wakes)
          -h, --help       show this help

        Writes into DIR: runs.csv (one row per run), and unless --shard: summary.csv and
        summary.md (mean, p50, p95 over seeds per grid point) and chart-METRIC.svg (the metric
        against the first --param, one line per other value); then sweep.json (what was swept,
        the scenario's SHA-256, bgsim's version, jobs and wall time), written last: a sweep that
        fails or is interrupted leaves no sweep.json. At most 1,000,000 runs (grid points x
        seeds). Progress goes to standard error when it is a terminal. See docs/sweeps.md.

        Exit codes: 0 written, 2 usage or an invalid scenario, 74 DIR could not be written (a
        full disk, a file in its place).
        """,
      options: [
        .init(name: "--param", valueName: "KEY=V1,V2,...", repeatable: true),
        .init(name: "--seeds", valueName: "A-B"), .init(name: "--jobs", valueName: "N"),
        .init(name: "--shard", valueName: "K/N"), .init(name: "--out", valueName: "DIR"),
        .init(name: "--chart", valueName: "M,..."),
      ],
      run: run)
  }

  static func run(_ arguments: ParsedArguments, _ command: Command) throws(CommandLineError) -> Int32 {
    func usage(_ message: String) -> CommandLineError { .usage(message, command: command.name) }
    guard arguments.positionals.count == 1, let file = arguments.positionals.first else {
      throw usage(
        arguments.positionals.isEmpty
          ? "missing the scenario FILE" : "expected one scenario FILE, found \(arguments.positionals.count)")
    }
    let texts = arguments.repeated["--param"] ?? []
    guard !texts.isEmpty else { throw usage("missing --param KEY=V1,V2,... (the policy values to sweep)") }
    let jobs = try arguments.jobs(usage)
    let charts = try chartList(arguments.options["--chart"], usage: usage)
    let bytes: Data
    let scenario: Scenario
    do {
      bytes = try ScenarioLoader.read(path: file)
      scenario = try ScenarioLoader.load(data: bytes, file: file)
    } catch {
      throw .invalidScenario(error)
    }
    let plan: SweepPlan
    let shard: SweepShard?
    do throws(SweepError) {
      let parameters = try texts.map { (text: String) throws(SweepError) in try SweepParameter.parse(text) }
      let seeds = try arguments.options["--seeds"].map { (text: String) throws(SweepError) in
        try SeedList.parse(text)
      }
      plan = try SweepPlan(parameters: parameters, seeds: seeds ?? [scenario.seed])
      shard = try arguments.options["--shard"].map { (text: String) throws(SweepError) in
        try SweepShard.parse(text)
      }
      _ = try plan.policies(base: scenario.policy)
    } catch {
      throw usage(error.message)
    }
    let out = arguments.options["--out"] ?? "sweep-\(scenario.name)"
    try OutputGuard.refuseOverwritingInputs(
      outputs: SweepOutput.fileNames.map { ("--out", OutputGuard.inFolder(out, $0)) }, inputs: [file],
      command: command)
    // Before the runs: a folder that cannot be written fails now, and an earlier sweep's
    // sweep.json is gone, so an interrupted sweep never looks finished.
    do {
      try SweepOutput.prepare(out)
    } catch {
      throw .sweep(error)
    }
    let progress = isatty(STDERR_FILENO) == 1 ? ProgressLine() : nil
    let (table, seconds): (RunTable, Double) = ProcessMetrics.wallSeconds {
      try! Sweep.run(scenario, plan: plan, jobs: jobs, shard: shard, progress: progress.map { p in p.update })
    }
    progress?.finish()
    let manifest = SweepManifest(
      scenario: file, scenarioSHA256: SHA256.hex(bytes), name: scenario.name, parameters: plan.parameters,
      seeds: SeedList.text(plan.seeds), runs: plan.runCount, charts: charts, shard: shard,
      bgsim: Usage.build, execution: SweepExecution(jobs: jobs, runs: table.rows.count, wallSeconds: seconds))
    do {
      try SweepOutput.write(manifest: manifest, table: table, to: out)
    } catch {
      throw .sweep(error)
    }
    let names = SweepOutput.files(manifest: manifest, table: table).map(\.name).sorted()
    let what = shard.map { "shard \($0) of " } ?? ""
    Console.out(
      "\(what)\(plan.pointCount) grid points x \(plan.seeds.count) seeds: \(table.rows.count) runs in "
        + String(format: "%.2f", seconds)
        + " s with \(jobs) jobs; wrote \(TerminalText.escape(out))/{\(names.joined(separator: ","))}")
    return ExitCode.ok
  }

  /// `--chart M,...`: known metrics, at least one, none twice.
  static func chartList(_ text: String?, usage: (String) -> CommandLineError) throws(CommandLineError)
    -> [String]
  {
    guard let text else { return defaultCharts }
    let charts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    guard !charts.contains(where: \.isEmpty) else {
      throw usage(
        "--chart expects metric names separated by commas, such as allDoneSeconds,wakes; found \(SweepError.quote(text))"
      )
    }
    var seen = Set<String>()
    for chart in charts {
      guard RunTable.metricColumns.contains(chart) else {
        let hint =
          Suggestion.didYouMean(chart, among: RunTable.metricColumns).map { "did you mean '\($0)'?" }
          ?? "metrics are \(RunTable.metricColumns.joined(separator: ", "))"
        throw usage("--chart: unknown metric \(SweepError.quote(chart)); \(hint)")
      }
      guard seen.insert(chart).inserted else { throw usage("--chart lists \(chart) twice") }
    }
    return charts
  }
}

/// `done/total, rate, ETA` on one line of standard error, redrawn at most five times a second.
///
/// `@unchecked Sendable`: `ParallelRunner` calls `update` one call at a time (under its lock).
final class ProgressLine: @unchecked Sendable {
  private let clock = ContinuousClock()
  private let start: ContinuousClock.Instant
  private var lastDrawn: ContinuousClock.Instant?
  private var drawn = false

  init() { start = clock.now }

  func update(done: Int, total: Int) {
    let now = clock.now
    if done < total, let last = lastDrawn, now - last < .milliseconds(200) { return }
    lastDrawn = now
    let (s, atto) = (now - start).components
    let elapsed = Double(s) + Double(atto) / 1e18
    let rate = elapsed > 0 ? Double(done) / elapsed : 0
    let eta = rate > 0 ? Double(total - done) / rate : 0
    let text = String(format: "\rsweep: %d/%d runs, %.1f runs/s, ETA %.0f s   ", done, total, rate, eta)
    Console.errorFragment(text)
    drawn = true
  }

  func finish() {
    if drawn { Console.errorFragment("\n") }
  }
}
