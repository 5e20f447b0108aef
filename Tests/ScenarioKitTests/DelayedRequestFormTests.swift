import Foundation
import ScenarioKit
import SimKernel
import Testing
import TransferEngine

/// `app.behavior.willBeginDelayedRequest`: the scripted app's answers, loaded and played.
@Suite struct DelayedRequestFormTests {
  static func scenario(_ answers: String, policy: String = "{}") -> String {
    """
    {
      "name": "delayed", "duration": "3h", "policy": \(policy),
      "server": {"resources": [{"url": "https://example.com/a", "size": "1MB"},
                               {"url": "https://example.com/a-fresh", "size": "2MB"},
                               {"url": "https://example.com/b", "size": "1MB"}]},
      "app": {"sessions": [{"identifier": "S"}], "behavior": {"willBeginDelayedRequest": \(answers)}},
      "timeline": [
        {"at": "0s", "do": "launch"},
        {"at": "0s", "do": "download", "session": "S", "url": "https://example.com/a", "name": "a", "earliestBegin": "+1h"},
        {"at": "0s", "do": "download", "session": "S", "url": "https://example.com/b", "name": "b", "earliestBegin": "+1h"},
        {"at": "1m", "do": "background"}
      ]
    }
    """
  }

  static func answered(_ result: RunResult) -> [String] {
    result.trace.events.filter { $0.kind == "task.delayedRequestAnswered" }.map { event in
      "\(event["task"]!) \(event["disposition"]!)" + (event["url"].map { " \($0)" } ?? "")
    }
  }

  @Test("the first matching answer wins; a task no entry matches continues; {task} fills the URL")
  func firstMatchWins() throws {
    let text = Self.scenario(
      #"[{"task": "a", "answer": "useNewRequest", "url": "https://example.com/{task}-fresh"}, {"task": "*", "answer": "cancel"}]"#
    )
    let result = ScenarioRunner.run(try loadScenario(text))
    #expect(result.runError == nil)
    #expect(Self.answered(result) == ["a useNewRequest https://example.com/a-fresh", "b cancel"])
    #expect(result.trace.events.contains { $0.kind == "task.finished" && $0["bytes"] == .int(2_000_000) })
    let unmatched = ScenarioRunner.run(
      try loadScenario(Self.scenario(#"[{"task": "z*", "answer": "cancel"}]"#)))
    #expect(Self.answered(unmatched) == ["a continueLoading", "b continueLoading"])
    // Entries for one task and `*` entries keep the file's order between them.
    let wildcardFirst = ScenarioRunner.run(
      try loadScenario(
        Self.scenario(
          #"[{"task": "b", "answer": "continueLoading"}, {"task": "*", "answer": "cancel"}, {"task": "a", "answer": "useNewRequest", "url": "https://example.com/a-fresh"}]"#
        )))
    #expect(Self.answered(wildcardFirst) == ["a cancel", "b continueLoading"])
  }

  @Test("without the key the delegate does not implement the method: nobody is asked")
  func absent() throws {
    let text = Self.scenario("[]").replacingOccurrences(
      of: #", "behavior": {"willBeginDelayedRequest": []}"#, with: "")
    let result = ScenarioRunner.run(try loadScenario(text))
    #expect(!result.trace.events.contains { $0.kind == "delegate.willBeginDelayedRequest" })
    #expect(result.trace.events.filter { $0.kind == "task.finished" }.count == 2)
  }

  @Test("delayedRequest.wakesApp false: the suspended app is not woken, the tasks wait")
  func knob() throws {
    let text = Self.scenario(
      #"[{"answer": "continueLoading"}]"#, policy: #"{"delayedRequest": {"wakesApp": false}}"#)
    let result = ScenarioRunner.run(try loadScenario(text))
    #expect(!result.trace.events.contains { $0.kind == "delegate.willBeginDelayedRequest" })
    #expect(!result.trace.events.contains { $0.kind == "task.started" })
    #expect(
      result.trace.events.contains { $0.kind == "task.deferred" && $0["reason"] == .string("delayedRequest") }
    )
  }

  @Test(arguments: [
    (
      #"[{"answer": "continue"}]"#,
      "s.json: app.behavior.willBeginDelayedRequest[0].answer: unknown answer 'continue'; expected one of continueLoading, useNewRequest, cancel"
    ),
    (
      #"[{"answer": "useNewRequest"}]"#,
      "s.json: app.behavior.willBeginDelayedRequest[0]: missing required key 'url'"
    ),
    (
      #"[{"answer": "cancel", "url": "https://example.com/b"}]"#,
      "s.json: app.behavior.willBeginDelayedRequest[0].url: 'url' is the new request of a 'useNewRequest' answer; 'cancel' takes none, so remove it or answer 'useNewRequest'"
    ),
    (
      #"[{"answer": "useNewRequest", "url": "ftp://example.com/b"}]"#,
      "s.json: app.behavior.willBeginDelayedRequest[0].url: 'ftp://example.com/b' is not an http or https URL"
    ),
    (
      #"[{"answer": "cancel", "tsak": "a"}]"#,
      "s.json: app.behavior.willBeginDelayedRequest[0]: unknown key 'tsak'; did you mean 'task'?"
    ),
  ])
  func refused(_ answers: String, _ message: String) {
    let problems = loaderProblems(Self.scenario(answers))
    #expect(problems.contains { $0.hasPrefix(message) }, "\(problems)")
  }
}
