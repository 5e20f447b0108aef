import Foundation
import SafeOutput
import ScenarioKit
import SimReport

/// `bgsim check PATH... [--update-golden]`: run every scenario under the paths and say which pass.
enum CheckCommand {
  static var command: Command {
    Command(
      name: "check", synopsis: "bgsim check PATH... [--update-golden]",
      summary: "Run every scenario under the paths: one line each, then 'N passed, N failed'.",
      details: """
        Arguments:
          PATH             a scenario file, or a directory searched for *.json (sorted by path)

        A scenario passes when it is valid, can be played, every expectation holds, and its
        trace matches its golden trace (NAME.trace.jsonl beside NAME.json) when it has one.
        Each line shows the simulated time and the wall time of the run; failures are
        followed by what went wrong (the failed expectations, the first divergence from the
        golden trace, or the validation problems).

        Options:
          --update-golden  write each scenario's trace as its golden trace instead of comparing
          -h, --help       show this help

        Exit codes: 0 all passed, 1 an expectation or golden trace failed, 2 an invalid scenario.
        """,
      flags: ["--update-golden"], run: run)
  }

  static func run(_ arguments: ParsedArguments, _ command: Command) throws(CommandLineError) -> Int32 {
    guard !arguments.positionals.isEmpty else {
      throw .usage("missing a PATH to check", command: command.name)
    }
    let files = try ScenarioFiles.find(under: arguments.positionals, command: command)
    let update = arguments.flags.contains("--update-golden")
    var passed = 0
    var failed = 0
    var invalid = false
    for file in files {
      let scenario: Scenario
      do {
        scenario = try ScenarioLoader.load(path: file)
      } catch {
        failed += 1
        invalid = true
        Console.out("FAIL  \(TerminalText.escape(file))  (invalid scenario)")
        for line in error.lines { Console.out("      \(line)") }
        continue
      }
      let (result, wall) = ProcessMetrics.wallSeconds { ScenarioRunner.run(scenario) }
      var problems: [String] = []
      if let error = result.runError { problems.append(TerminalText.escape(error)) }
      for expectation in result.expectations where !expectation.passed {
        problems.append(TimelineText.render([expectation]).trimmingTrailingNewlines())
      }
      let golden = GoldenTrace.path(forScenario: file)
      let trace = result.trace.jsonLines
      if update {
        do throws(FileWriteError) {
          try AtomicFile.write(trace, to: golden)
        } catch {
          throw .cannotWrite(error)
        }
      } else if let expected = try? String(contentsOfFile: golden, encoding: .utf8),
        let divergence = GoldenTrace.compare(golden: expected, actual: trace)
      {
        problems.append(divergence.description + "\n  (rerun with --update-golden if the change is intended)")
      }
      if result.runError != nil { invalid = true }
      let timing = "(simulated \(result.endTime), wall \(String(format: "%.3f", wall)) s)"
      if problems.isEmpty {
        passed += 1
        Console.out("ok    \(TerminalText.escape(file))  \(timing)")
      } else {
        failed += 1
        Console.out("FAIL  \(TerminalText.escape(file))  \(timing)")
        for problem in problems {
          for line in problem.split(separator: "\n") { Console.out("      \(line)") }
        }
      }
    }
    Console.out("\(passed) passed, \(failed) failed")
    if invalid { return ExitCode.invalidInput }
    return failed > 0 ? ExitCode.expectationFailed : ExitCode.ok
  }
}

extension String {
  func trimmingTrailingNewlines() -> String {
    var s = self
    while s.hasSuffix("\n") { s.removeLast() }
    return s
  }
}
