import Foundation
import ScenarioKit
import SimKernel
import Testing
import TransferEngine

/// The `didBecomeInvalid` reaction: after the app's own invalidation, traced with a nil error.
@Suite struct InvalidationReactionTests {
  static func scenario(cancelTasks: Bool, reaction: String) -> String {
    """
    {
      "name": "invalid", "duration": "1h",
      "device": {"network": [{"at": "0s", "interface": "wifi", "down": "8Mbps", "up": "1Mbps", "latency": "30ms"}]},
      "server": {"resources": [{"url": "https://example.com/a.bin", "size": "4MB", "etag": "a"},
                               {"url": "https://example.com/b.bin", "size": "1MB", "etag": "b"}]},
      "app": {"sessions": [{"identifier": "S", "kind": "background"}], "behavior": {"on": [\(reaction)]}},
      "timeline": [
        {"at": "0s", "do": "launch"},
        {"at": "0s", "do": "download", "session": "S", "url": "https://example.com/a.bin", "name": "a"},
        {"at": "1s", "do": "invalidate", "session": "S", "cancelTasks": \(cancelTasks)}
      ]
    }
    """
  }

  static let recreate =
    #"{"event": "didBecomeInvalid", "do": [{"do": "download", "session": "S", "url": "https://example.com/b.bin", "name": "b"}]}"#

  static func kinds(_ result: RunResult) -> [String] {
    result.trace.events.map { event in
      event.kind + (event["task"].map { " \($0)" } ?? "") + (event["session"].map { " \($0)" } ?? "")
    }
  }

  @Test(
    "finishTasksAndInvalidate: the reaction runs once, after the last didComplete, and its new session works",
    arguments: [false, true])
  func afterLastCompletion(cancelTasks: Bool) throws {
    let result = ScenarioRunner.run(
      try loadScenario(Self.scenario(cancelTasks: cancelTasks, reaction: Self.recreate)))
    #expect(result.runError == nil)
    let invalid = result.trace.events.filter { $0.kind == "delegate.didBecomeInvalid" }
    #expect(invalid.count == 1)
    #expect(invalid.first?["error"] == .string("none"))
    let events = result.trace.events
    let completeA = try #require(
      events.firstIndex { $0.kind == "delegate.didComplete" && $0["task"] == .string("a") })
    let invalidAt = try #require(events.firstIndex { $0.kind == "delegate.didBecomeInvalid" })
    let createdB = try #require(events.firstIndex { $0.kind == "task.created" && $0["task"] == .string("b") })
    #expect(completeA < invalidAt && invalidAt < createdB)
    // The running download decides when: at once after the cancellation, or after it finished.
    #expect((events[completeA]["error"] == .string("cancelled")) == cancelTasks)
    #expect(events.contains { $0.kind == "task.finished" && $0["task"] == .string("b") })
    #expect(events.filter { $0.kind == "session.created" }.count == 2)
  }

  @Test("no invalidation, no callback: the reaction never runs")
  func notWithoutInvalidation() throws {
    let text = Self.scenario(cancelTasks: false, reaction: Self.recreate).replacingOccurrences(
      of: #"{"at": "1s", "do": "invalidate", "session": "S", "cancelTasks": false}"#,
      with: #"{"at": "1s", "do": "getAllTasks", "session": "S"}"#)
    let result = ScenarioRunner.run(try loadScenario(text))
    #expect(!result.trace.events.contains { $0.kind == "delegate.didBecomeInvalid" })
    #expect(!result.trace.events.contains { $0["task"] == .string("b") })
  }

  @Test("didBecomeInvalid concerns no task: a task filter or {task} is refused with the fix")
  func noTask() {
    let withTask = Self.scenario(
      cancelTasks: true,
      reaction: #"{"event": "didBecomeInvalid", "do": [{"do": "cancel", "task": "{task}"}]}"#)
    #expect(
      loaderProblems(withTask).contains {
        $0.contains("app.behavior.on[0].do[0].task")
          && $0.contains("'didBecomeInvalid' callback concerns no task")
      })
    let withError = Self.scenario(
      cancelTasks: true,
      reaction:
        #"{"event": "didBecomeInvalid", "error": "cancelled", "do": [{"do": "getAllTasks", "session": "S"}]}"#
    )
    #expect(loaderProblems(withError).contains { $0.contains("app.behavior.on[0].error") })
  }
}
