import ScenarioKit
import Testing
import TransferEngine

@testable import FuzzKit

/// The extreme scenarios are valid, reach the edges they are meant to, and end cleanly.
@Suite struct ExtremeScenariosTests {
  @Test func everySeedLoadsAndEndsWithinItsBudgets() {
    var stopped = 0
    for seed in UInt64(1)...12 {
      switch ExtremeScenarios.outcome(seed: seed) {
      case .clean: break
      case .budgetStopped: stopped += 1
      case .failed(let failure): Issue.record("seed \(seed): \(failure.signature)\n\(failure.details)")
      }
    }
    #expect(stopped > 0, "no seed ran into a budget: the loops are not being generated")
  }

  @Test func theSameSeedGivesTheSameScenario() {
    #expect(ExtremeScenarios.json(seed: 4) == ExtremeScenarios.json(seed: 4))
    #expect(ExtremeScenarios.json(seed: 4) != ExtremeScenarios.json(seed: 5))
  }

  @Test func theScenariosReachTheEdges() throws {
    var text = ""
    for seed in UInt64(1)...60 { text += ExtremeScenarios.json(seed: seed) }
    for edge in [
      "1099511627776", "1000000000000bps", "\"0bps\"", "\"3650d\"", "\"count\": 100000", "\"random\"",
    ] {
      #expect(text.contains(edge), "never generated: \(edge)")
    }
  }
}
