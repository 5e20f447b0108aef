import Foundation
import SafeOutput
import ScenarioKit
import SimReport

/// Runs a validated scenario and prints its timeline and expectation results; returns the
/// exit code (0 all expectations hold, 1 some failed, 2 the scenario could not be played).
func simulateLoadedScenario(_ scenario: Scenario, options: RunOptions) -> Int32 {
  let result = ScenarioRunner.run(scenario, budget: options.budget)
  // With `--trace-out -` standard output carries the trace alone; the rest goes to standard error.
  let toStandardOutput = options.traceOut == "-"
  func say(_ text: String, _ terminator: String = "\n") {
    if toStandardOutput {
      Console.error(text, terminator: terminator)
    } else {
      Console.out(text, terminator: terminator)
    }
  }
  if toStandardOutput {
    Console.out(result.trace.jsonLines, terminator: "")
  } else if let path = options.traceOut {
    do throws(FileWriteError) {
      try AtomicFile.write(result.trace.jsonLines, to: path)
    } catch {
      return ErrorRenderer.report(.cannotWrite(error))
    }
  }
  if !options.quiet {
    let about = scenario.description.isEmpty ? "" : ": \(TerminalText.escape(scenario.description))"
    say("\(TerminalText.escape(scenario.name)) (seed \(result.seed))\(about)")
    say("")
    say(TimelineText.render(result.trace.events), "")
    say("")
  }
  if let error = result.runError {
    let problem = ScenarioVerdict.runProblem(
      error, file: options.file, locator: JSONLocator(file: options.file))
    Console.error(problem.text)
    return ExitCode.invalidInput
  }
  if !result.expectations.isEmpty {
    say("Expectations:")
    say(
      toStandardOutput
        ? TimelineText.render(result.expectations)
        : TerminalStyle.verdicts(TimelineText.render(result.expectations)), "")
  }
  let held = result.expectations.filter(\.passed).count
  say(
    "\(held) of \(result.expectations.count) expectations hold; simulated \(result.endTime.sinceStart.readable), "
      + "\(result.trace.count) trace events")
  if !options.quiet {
    let accounts = TaskAccounts.compute(result)
    if !accounts.isEmpty {
      say("")
      say(AccountText.table(accounts), "")
    }
  }
  return result.passed ? ExitCode.ok : ExitCode.expectationFailed
}
