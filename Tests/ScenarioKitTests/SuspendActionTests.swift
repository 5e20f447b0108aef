import ScenarioKit
import SimKernel
import Testing
import TransferEngine

/// The scripted app's `suspend` and `resume` actions, run end to end from scenario text.
@Suite struct SuspendActionTests {
  static func scenario(_ timeline: String, expect: String = "[]") -> String {
    """
    {
      "name": "suspend", "duration": "1h",
      "device": {"network": [{"at": "0s", "interface": "wifi", "down": "4Mbps", "up": "1Mbps", "latency": "30ms"}]},
      "server": {"resources": [{"url": "https://example.com/a.bin", "size": "1MB", "etag": "a"}]},
      "app": {"sessions": [{"identifier": "S", "kind": "background"}]},
      "timeline": [
        {"at": "0s", "do": "launch"},
        {"at": "0s", "do": "download", "session": "S", "url": "https://example.com/a.bin", "name": "a"}\(timeline)
      ],
      "expect": \(expect)
    }
    """
  }

  @Test("a download suspended at 40% for ten minutes continues at its offset when resumed")
  func suspendAndResume() throws {
    let text = Self.scenario(
      """
      ,
      {"at": "0.86s", "do": "suspend", "task": "a"},
      {"at": "10m", "do": "resume", "task": "a"}
      """,
      expect: """
        [{"trace": "task.suspend task=a bytes=400000", "count": 1},
         {"trace": "task.retry task=a offset=400000", "count": 1},
         {"task": "a", "state": "completed", "by": "10m2s"}]
        """)
    let result = ScenarioRunner.run(try ScenarioLoader.load(data: Array(text.utf8), file: "s.json"))
    #expect(result.runError == nil)
    #expect(result.failedExpectations.isEmpty, "\(result.failedExpectations)")
    let finished = try #require(result.trace.events.first { $0.kind == "task.finished" })
    #expect(finished.time > SimTime(.minutes(10)))
    let account = try #require(TaskAccounts.compute(result).first)
    #expect(account.intervals.contains { $0.activity == .suspendedByApp && $0.duration > .minutes(9) })
  }

  @Test("suspended and never resumed: the task never completes")
  func neverResumed() throws {
    let text = Self.scenario(#", {"at": "0.5s", "do": "suspend", "task": "a"}"#)
    let result = ScenarioRunner.run(try ScenarioLoader.load(data: Array(text.utf8), file: "s.json"))
    #expect(result.trace.events.contains { $0.kind == "task.suspend" })
    #expect(!result.trace.events.contains { TraceKind.taskEndings.contains($0.traceKind ?? .lint) })
  }

  @Test("suspend and resume need a task name the scenario defines")
  func unknownTask() {
    let text = Self.scenario(#", {"at": "1s", "do": "suspend", "task": "b"}"#)
    #expect(throws: ScenarioErrors.self) { try ScenarioLoader.load(data: Array(text.utf8), file: "s.json") }
  }
}
