import ScenarioKit

/// Runs a validated scenario and prints its timeline and expectation results; returns the
/// exit code (0 all expectations hold, 1 some failed). Replaced when the engine is wired in.
func simulateLoadedScenario(_ scenario: Scenario, options: RunOptions) -> Int32 {
  Console.error("bgsim: the engine is not wired yet")
  return 1
}
