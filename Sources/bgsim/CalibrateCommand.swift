import CalibrationKit
import Foundation
import ScenarioKit
import SimKernel
import SweepKit

/// `bgsim calibrate [WORLD.json] --observed LOG.jsonl --param KEY=LO..HI ... [--seeds A-B]
/// [--jobs N] [--tolerance D] [--out DIR]`.
enum CalibrateCommand {
  static var command: Command {
    Command(
      name: "calibrate",
      synopsis:
        "bgsim calibrate [WORLD.json] --observed LOG.jsonl --param KEY=LO..HI [--param ...] [--seeds A-B] [--jobs N] [--tolerance D] [--out DIR]",
      summary:
        "Fit policy knobs to what a device observed: replay the world, match events, search the ranges.",
      details: """
        Arguments:
          WORLD.json       the world: a scenario (device, server, user actions, the app's behaviour);
                           leave it out when the log carries the user actions and network changes
                           (as BgsimRecorder writes them): the world is then built from the log

        Options:
          --observed LOG.jsonl
                           what the app observed, in the trace format (BgsimRecorder's log, or
                           'bgsim run --trace-out'; only the kinds an app can see are used)
          --param KEY=LO..HI
                           a knob to fit and the range to search (rateLimiter.firstDelay=20s..3m,
                           rateLimiter.growth=1.2..4); repeat for more knobs
          --seeds A-B      seeds each candidate runs with (default: the world's)
          --jobs N         worker threads, one simulation each (default: the number of cores);
                           the result is the same for any N
          --tolerance D    values whose RMS residual is within D of the best fit as well (default 0.5s)
          --out DIR        where to write (default: calibration-NAME)
          -h, --help       show this help

        Matches each observed event to the simulated event of the same kind and task, in order;
        searches a coarse grid then finer grids around the best point; then profiles each knob
        alone to say how sharply the error rises around its value. A knob whose error stays
        within the tolerance over its whole range is reported unidentified, one that fits on one
        side only as bounded; neither gets a value in the policy.

        Writes into DIR: fit.json (a 'policy' section of the identified knobs, ready to paste
        into a scenario, and what the log says about each knob), residuals.csv, and
        observed-vs-simulated.svg; without WORLD.json also world.json.
        Exit codes: 0 fitted, 1 no candidate matches the log's events, 2 bad input, 74 DIR
        could not be written.
        See docs/calibration.md.
        """,
      options: [
        .init(name: "--observed", valueName: "LOG.jsonl"),
        .init(name: "--param", valueName: "KEY=LO..HI", repeatable: true),
        .init(name: "--seeds", valueName: "A-B"), .init(name: "--jobs", valueName: "N"),
        .init(name: "--tolerance", valueName: "D"), .init(name: "--out", valueName: "DIR"),
      ],
      run: run)
  }

  static func run(_ arguments: ParsedArguments, _ command: Command) throws(CommandLineError) -> Int32 {
    func usage(_ message: String) -> CommandLineError { .usage(message, command: command.name) }
    guard arguments.positionals.count <= 1 else {
      throw usage("expected at most one WORLD.json, found \(arguments.positionals.count)")
    }
    guard let logPath = arguments.options["--observed"] else {
      throw usage("missing --observed LOG.jsonl (what the device observed)")
    }
    let texts = arguments.repeated["--param"] ?? []
    guard !texts.isEmpty else { throw usage("missing --param KEY=LO..HI (a knob to fit)") }
    let jobs = try arguments.jobs(usage)
    var tolerance = 0.5
    if let text = arguments.options["--tolerance"] {
      guard let d = try? Literals.duration(text), d > .zero else {
        throw usage("--tolerance expects a positive duration like 0.5s or 2s, found '\(text)'")
      }
      tolerance = d.seconds
    }
    guard SweepFiles.exists(logPath) else { throw usage("cannot read the log '\(logPath)'; check the path") }
    let log: [TraceEvent]
    do throws(CalibrationError) {
      let bytes: [UInt8]
      do {
        bytes = try SweepFiles.read(logPath, limit: TraceLogReader.maxLogBytes)
      } catch {
        throw CalibrationError("the log: \(error.message)")
      }
      log = try TraceLogReader.read(String(decoding: bytes, as: UTF8.self), file: logPath)
    } catch {
      throw .unavailable(error.message)
    }
    var world: Scenario
    var worldFile = ""
    var builtWorld: String?
    if let file = arguments.positionals.first {
      do {
        world = try ScenarioLoader.load(path: file)
      } catch {
        throw .invalidScenario(error)
      }
      worldFile = file
    } else {
      do {
        let json = try WorldFromLog.json(log, logFile: logPath)
        world = try ScenarioLoader.load(data: Array(json.utf8), file: "world.json")
        builtWorld = json
        worldFile = "world.json (built from \(logPath))"
      } catch let error as CalibrationError {
        throw .unavailable(error.message)
      } catch {
        throw .unavailable("\(logPath): the world built from the log is not valid: \(error)")
      }
    }
    let knobs: [KnobRange]
    let seeds: [UInt64]
    do throws(CalibrationError) {
      knobs = try texts.map { (text: String) throws(CalibrationError) in
        try KnobRange.parse(text, base: world.policy)
      }
      let keys = knobs.map(\.key)
      if let repeated = keys.enumerated().first(where: { keys[..<$0.offset].contains($0.element) }) {
        throw CalibrationError("--param \(repeated.element) is given twice")
      }
      do throws(SweepError) {
        seeds =
          try arguments.options["--seeds"].map { (text: String) throws(SweepError) in
            try SeedList.parse(text)
          } ?? [world.seed]
      } catch {
        throw CalibrationError(error.message)
      }
    } catch {
      throw usage(error.message)
    }
    let out = arguments.options["--out"] ?? "calibration-\(world.name)"
    try OutputGuard.refuseOverwritingInputs(
      outputs: ["world.json", "fit.json", "residuals.csv", "observed-vs-simulated.svg"].map {
        ("--out", OutputGuard.inFolder(out, $0))
      }, inputs: arguments.positionals + [logPath], command: command)
    let request = CalibrationRequest(
      world: world, log: log, knobs: knobs, seeds: seeds, jobs: jobs, tolerance: tolerance)
    let outcome: (Result<CalibrationResult, CalibrationError>, Double) = ProcessMetrics.wallSeconds {
      do throws(CalibrationError) {
        return .success(try Calibration.run(request))
      } catch {
        return .failure(error)
      }
    }
    let result: CalibrationResult
    switch outcome.0 {
    case .success(let r): result = r
    case .failure(let error): throw .unavailable("\(logPath): \(error.message)")
    }
    if !result.observed.ignoredKinds.isEmpty {
      Console.out(
        "ignored the log's events an app cannot see: \(result.observed.ignoredKinds.joined(separator: ", "))")
    }
    Console.out(CalibrationReport.text(result), terminator: "")
    var files = CalibrationReport.files(result, world: worldFile, log: logPath)
    if let builtWorld { files.insert(("world.json", builtWorld), at: 0) }
    do {
      try CalibrationReport.write(files, to: out)
    } catch {
      throw error.isOutputFailure ? .outputFailed(error.message) : .unavailable(error.message)
    }
    Console.out(
      "searched \(result.simulations) simulations in " + String(format: "%.2f", outcome.1)
        + " s with \(jobs) jobs; wrote \(out)/{\(files.map(\.name).joined(separator: ","))}")
    return result.matchesLog ? ExitCode.ok : ExitCode.expectationFailed
  }
}
