import ScenarioKit
import SimKernel
import Testing

@testable import FuzzKit

/// `bgsim fuzz` must reach the behaviours added after version 1, not only accept them: over a
/// few hundred seeds each shows up in some trace.
@Suite struct GeneratedBehaviourTests {
  /// One trace line per event, `kind key=value ...`, for every seed of 1...300.
  static let traces: [[String]] = (UInt64(1)...300).map { seed in
    ScenarioRunner.run(ScenarioGenerator.scenario(seed: seed)).trace.events.map { event in
      ([event.kind] + event.fields.map { "\($0.key)=\($0.value)" }).joined(separator: " ")
    }
  }

  static func seen(_ prefix: String) -> Int {
    traces.filter { lines in lines.contains { $0.hasPrefix(prefix) } }.count
  }

  @Test(arguments: [
    "app.beginBackgroundTask", "app.endBackgroundTask", "app.backgroundTaskExpired",
    "app.terminate reason=watchdog", "lint rule=backgroundTaskNotEnded",
  ])
  func generated(_ prefix: String) {
    #expect(Self.seen(prefix) > 0, "no fuzzed run of seeds 1-300 has '\(prefix)'")
  }
}
