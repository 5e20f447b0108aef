import Foundation
import Testing

/// `bgsim bench explore` (performance.md): one JSON line with the whole exploration's wall time
/// and its runs per second.
@Suite struct BenchExploreTests {
  @Test func benchExplorePrintsOneLineWithRunsPerSecond() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    let result = try sandbox.run(["bench", "explore", "--json"])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.count == 1)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: Any])
    #expect(object["workload"] as? String == "explore")
    // Every kill point run plus the 100 seeds, on both cores.
    let killPointsRun = try #require(object["killPointsRun"] as? Int)
    #expect(killPointsRun > 0)
    #expect(object["runs"] as? Int == killPointsRun + 100)
    #expect(object["seeds"] as? Int == 100)
    #expect(object["jobs"] as? Int == 2)
    // The bridged Foundation app, shaped like the example's, with the example's late state write:
    // found after a system termination inside its window.
    #expect(object["app"] as? String == "bridged")
    let rules = try #require(object["findingRules"] as? [String])
    #expect(rules.contains("terminationNotTransparent"))
    #expect(object["findings"] as? Int == rules.count)
    #expect((object["wallSeconds"] as? Double ?? 0) > 0)
    #expect((object["runsPerSecond"] as? Double ?? 0) > 0)
  }

  @Test func benchExploreTakesNoArgument() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    let result = try sandbox.run(["bench", "explore", "10"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("unexpected argument '10'"))
  }
}
