import Foundation
import Testing

/// `bgsim bench scripted [N]` (performance.md): its argument checked, and one JSON line per size.
@Suite struct BenchScriptedTests {
  @Test func benchScriptedRefusesMoreTasksThanAScenarioMayCount() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    let result = try sandbox.run(["bench", "scripted", "100001"])
    #expect(result.status == 2)
    #expect(
      result.stderr.hasPrefix("bgsim: scripted takes one task count N from 1 to 100000, found '100001'\n"))
  }

  /// One size prints one JSON line, with time per task, and the scenario's expectation held.
  @Test func benchScriptedPrintsOneLinePerSize() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    let result = try sandbox.run(["bench", "scripted", "20", "--json"])
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.count == 1)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: Any])
    #expect(object["workload"] as? String == "scripted")
    #expect(object["tasks"] as? Int == 20)
    #expect(object["passed"] as? Bool == true)
    #expect((object["microsecondsPerTask"] as? Double ?? 0) > 0)
  }
}
