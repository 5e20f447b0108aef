import Foundation
import SafeOutput
import ScenarioKit
import SimKernel

/// `bgsim check PATH... [--update-golden] [--format F] [--junit FILE]`: run every scenario
/// under the paths and say which pass, to people, programs and CI systems.
enum CheckCommand {
  static var command: Command {
    Command(
      name: "check",
      synopsis: "bgsim check PATH... [--update-golden] [--format text|json|github] [--junit FILE]",
      summary: "Run every scenario under the paths: one line each, then 'N passed, N failed'.",
      details: """
        Arguments:
          PATH             a scenario file, or a directory searched for *.json (sorted by path),
                           skipping hidden, build, Tests and output folders (Reports,
                           fuzz-failures) and JSON files that are not scenarios (with a note)

        A scenario passes when it is valid, can be played, every expectation holds, and its
        trace matches its golden trace (NAME.trace.jsonl beside NAME.json) when it has one.
        Each line shows the simulated time and the wall time of the run; failures are
        followed by each problem as FILE:LINE:COL: error: json.path: message (the failed
        expectation with what happened instead and the nearest trace lines, the first
        divergence from the golden trace, or the validation problems).

        Options:
          --update-golden  write each scenario's trace as its golden trace instead of comparing
          --format F       text (default); json: one JSON document with every verdict;
                           github: text, with each problem as a GitHub Actions annotation
          --junit FILE     also write the verdicts as JUnit XML (one testcase per scenario)
          -q, --quiet      print only failures and the summary line
          -h, --help       show this help

        Exit codes: 0 all passed, 1 an expectation or golden trace failed, 2 an invalid
        scenario, or a PATH with no scenarios under it; 74 the JUnit file or a golden trace
        could not be written.
        See docs/scenario-format.md for the format.
        """,
      flags: ["--update-golden", "--quiet"],
      options: [OutputFormat.option, .init(name: "--junit", valueName: "FILE")], run: run)
  }

  static func run(_ arguments: ParsedArguments, _ command: Command) throws(CommandLineError) -> Int32 {
    guard !arguments.positionals.isEmpty else {
      throw .usage("missing a PATH to check", command: command.name)
    }
    let format = try OutputFormat.parse(arguments, command: command)
    let junit = arguments.options["--junit"]
    let files = try ScenarioFiles.find(under: arguments.positionals, command: command)
    let update = arguments.flags.contains("--update-golden")
    let quiet = arguments.flags.contains("--quiet")
    let goldens = files.map(GoldenTrace.path(forScenario:))
    try OutputGuard.refuseOverwritingInputs(
      outputs: junit.map { [("--junit", $0)] } ?? [], inputs: files + goldens, command: command)
    if update {
      try OutputGuard.refuseOverwritingInputs(
        outputs: goldens.map { ("--update-golden", $0) }, inputs: files, command: command)
    }
    var verdicts: [ScenarioVerdict] = []
    for file in files {
      let (verdict, unwritable) = ScenarioVerdict.check(file: file, updateGolden: update)
      if let unwritable { throw .cannotWrite(unwritable) }
      verdicts.append(verdict)
      if format != .json { printLines(verdict, format: format, quiet: quiet) }
    }
    let passed = verdicts.filter { $0.status == .passed }.count
    let failed = verdicts.count - passed
    if format == .json {
      Console.out(json(verdicts, passed: passed, failed: failed))
    } else {
      Console.out("\(passed) passed, \(failed) failed")
    }
    if let junit {
      do throws(FileWriteError) {
        try AtomicFile.write(JUnitReport.xml(verdicts), to: junit)
      } catch {
        throw .cannotWrite(error)
      }
    }
    if verdicts.contains(where: { $0.status == .invalid }) { return ExitCode.invalidInput }
    return failed > 0 ? ExitCode.expectationFailed : ExitCode.ok
  }

  static func printLines(_ v: ScenarioVerdict, format: OutputFormat, quiet: Bool) {
    let timing =
      v.simulated.map { "(simulated \($0), wall \(String(format: "%.3f", v.wallSeconds)) s)" }
      ?? "(invalid scenario)"
    if v.status == .passed {
      if !quiet { Console.out("\(TerminalStyle.ok())    \(TerminalText.escape(v.file))  \(timing)") }
      return
    }
    Console.out("\(TerminalStyle.fail())  \(TerminalText.escape(v.file))  \(timing)")
    for problem in v.problems {
      for line in format.lines(problem, indent: "      ") { Console.out(line) }
    }
  }

  /// `{"scenarios": [...], "passed": N, "failed": N}`, each scenario with its status, times,
  /// expectation verdicts and located problems.
  static func json(_ verdicts: [ScenarioVerdict], passed: Int, failed: Int) -> String {
    let items = verdicts.map { v in
      let expectations = v.expectations.map { e in
        "{\"path\": \(JSONText.quoted(e.path)), \"expected\": \(JSONText.quoted(e.expected)), "
          + "\"passed\": \(e.passed), \"found\": \(JSONText.quoted(e.found))}"
      }
      return "{\"file\": \(JSONText.quoted(v.file)), \"name\": \(JSONText.quoted(v.name)), "
        + "\"status\": \(JSONText.quoted(v.status.rawValue)), "
        + "\"simulated\": \(v.simulated.map(JSONText.quoted) ?? "null"), "
        + "\"wallSeconds\": \(String(format: "%.3f", v.wallSeconds)), "
        + "\"expectations\": [\(expectations.joined(separator: ", "))], "
        + "\"problems\": [\(v.problems.map(\.json).joined(separator: ", "))]}"
    }
    return "{\"scenarios\": [\n  " + items.joined(separator: ",\n  ")
      + "\n], \"passed\": \(passed), \"failed\": \(failed)}"
  }
}
