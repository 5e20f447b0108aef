import Foundation
import SafeOutput
import ScenarioKit
import SimReport

/// Runs a validated scenario and prints its timeline and expectation results; returns the
/// exit code (0 all expectations hold, 1 some failed, 2 the scenario could not be played).
func simulateLoadedScenario(_ scenario: Scenario, options: RunOptions) -> Int32 {
  let result = ScenarioRunner.run(scenario, budget: options.budget)
  if let path = options.traceOut {
    do throws(FileWriteError) {
      try AtomicFile.write(result.trace.jsonLines, to: path)
    } catch {
      return ErrorRenderer.report(.cannotWrite(error))
    }
  }
  if !options.quiet {
    let about = scenario.description.isEmpty ? "" : ": \(TerminalText.escape(scenario.description))"
    Console.out("\(TerminalText.escape(scenario.name)) (seed \(result.seed))\(about)")
    Console.out("")
    Console.out(TimelineText.render(result.trace.events), terminator: "")
    Console.out("")
  }
  if let error = result.runError {
    Console.error(TerminalText.escape(error))
    return ExitCode.invalidInput
  }
  if !result.expectations.isEmpty {
    Console.out("Expectations:")
    Console.out(TimelineText.render(result.expectations), terminator: "")
  }
  let held = result.expectations.filter(\.passed).count
  Console.out(
    "\(held) of \(result.expectations.count) expectations hold; simulated \(result.endTime), "
      + "\(result.trace.count) trace events")
  return result.passed ? ExitCode.ok : ExitCode.expectationFailed
}
