import Foundation
import ScenarioKit
import SimKernel

/// `bgsim bench [WORKLOAD] [--json]`: the benchmarks of performance.md.
enum BenchCommand {
  /// The workloads performance.md names; only those with a runner exist in this build.
  static let workloads = ["hold", "fleet", "share", "sweep"]

  static var command: Command {
    Command(
      name: "bench", synopsis: "bgsim bench [WORKLOAD] [--json]",
      summary: "Run the benchmarks of performance.md (build with -c release).",
      details: """
        Workloads:
          hold          the kernel alone: 10,000 pending timers, 5,000,000 events
          fleet, share, sweep
                        the engine workloads (not available yet)
        Without WORKLOAD every available workload runs.

        Options:
          --json        print one JSON object per workload, one a line
          -h, --help    show this help

        Measure release builds: swift run -c release bgsim bench --json
        """,
      flags: ["--json"], run: run)
  }

  static func run(_ arguments: ParsedArguments, _ command: Command) throws(CommandLineError) -> Int32 {
    let json = arguments.flags.contains("--json")
    guard let workload = arguments.positionals.first else {
      warnIfDebug()
      report(hold(), json: json)
      return ExitCode.ok
    }
    switch workload {
    case "hold":
      if arguments.positionals.count > 1 {
        throw .usage("unexpected argument '\(arguments.positionals[1])'", command: command.name)
      }
      warnIfDebug()
      report(hold(), json: json)
      return ExitCode.ok
    case _ where workloads.contains(workload):
      throw .unavailable("workload '\(workload)' is not available yet; available: hold")
    default:
      let hint =
        Suggestion.didYouMean(workload, among: workloads).map { "did you mean '\($0)'?" }
        ?? "workloads are \(workloads.joined(separator: ", "))"
      throw .usage("unknown workload '\(workload)'; \(hint)", command: command.name)
    }
  }

  /// What one workload measured.
  struct Measurement {
    var workload: String
    var events: Int
    var wallSeconds: Double
    var peakRSSBytes: Int64?
    var eventsPerSecond: Double { wallSeconds > 0 ? Double(events) / wallSeconds : 0 }
  }

  static func hold() -> Measurement {
    let (outcome, seconds) = ProcessMetrics.wallSeconds { HoldBenchmark.run() }
    return Measurement(
      workload: "hold", events: outcome.events, wallSeconds: seconds,
      peakRSSBytes: ProcessMetrics.peakResidentBytes())
  }

  static func report(_ m: Measurement, json: Bool) {
    let rss = m.peakRSSBytes.map(String.init) ?? "null"
    if json {
      Console.out(
        "{\"workload\": \(JSONText.quoted(m.workload)), \"events\": \(m.events), "
          + "\"wallSeconds\": \(String(format: "%.3f", m.wallSeconds)), "
          + "\"eventsPerSecond\": \(String(format: "%.3g", m.eventsPerSecond)), \"peakRSSBytes\": \(rss)}")
    } else {
      let mib = m.peakRSSBytes.map { String(format: "%.1f MiB", Double($0) / 1_048_576) } ?? "unknown"
      Console.out(
        "\(m.workload): \(m.events) events in \(String(format: "%.3f", m.wallSeconds)) s, "
          + "\(String(format: "%.3g", m.eventsPerSecond)) events/s, peak RSS \(mib)")
    }
  }

  /// Debug builds are many times slower; their numbers mean nothing against performance.md.
  static func warnIfDebug() {
    #if DEBUG
      Console.error("bgsim: warning: this is a debug build; measure with 'swift run -c release bgsim bench'")
    #endif
  }
}
