import Foundation
import SimKernel
import Testing
import TransferEngine

@testable import ScenarioKit

/// The continued-processing actions of the format (behavior.md, "Continued processing").
@Suite struct ContinuedProcessingFormTests {
  static func scenario(_ timeline: String, reactions: String = "") -> String {
    #"""
    {"name": "t", "duration": "1h",
     "server": {"resources": [{"url": "https://h/a", "size": "1MB"}]},
     "app": {"sessions": [{"identifier": "S"}], "behavior": {"on": [\#(reactions)]}},
     "timeline": [{"at": "0s", "do": "launch"}, \#(timeline)]}
    """#
  }

  static let submit =
    #"{"at": "1s", "do": "submitContinuedProcessing", "identifier": "x", "title": "Export"}"#

  @Test("the actions load with their defaults (strategy queue, add 1, success true)")
  func loads() throws {
    let text = Self.scenario(
      Self.submit + #"""
        , {"at": "2s", "do": "reportContinuedProgress", "identifier": "x"},
          {"at": "3s", "do": "completeContinuedProcessing", "identifier": "x"},
          {"at": "4s", "do": "cancelContinuedProcessing", "identifier": "x"}
        """#)
    let timeline = try loadScenario(text).timeline.map(\.action)
    guard case .app(.submitContinuedProcessing("x", "Export", "", .queue)) = timeline[1] else {
      Issue.record("submit: \(timeline[1])")
      return
    }
    guard case .app(.reportContinuedProgress("x", 1, nil)) = timeline[2] else {
      Issue.record("report: \(timeline[2])")
      return
    }
    guard case .app(.completeContinuedProcessing("x", true)) = timeline[3] else {
      Issue.record("complete: \(timeline[3])")
      return
    }
    guard case .cancelContinuedProcessing("x") = timeline[4] else {
      Issue.record("cancel: \(timeline[4])")
      return
    }
  }

  @Test(arguments: [
    (
      #"{"at": "1s", "do": "submitContinuedProcessing", "identifier": "x"}"#,
      "timeline[1]: missing required key 'title'"
    ),
    (
      #"{"at": "1s", "do": "submitContinuedProcessing", "identifier": "x", "title": "T", "strategy": "wait"}"#,
      "timeline[1].strategy"
    ),
    (
      #"{"at": "1s", "do": "reportContinuedProgress", "identifier": "y"}"#,
      "no submitContinuedProcessing submits a request with identifier 'y'"
    ),
    (
      #"{"at": "1s", "do": "completeContinuedProcessing", "identifier": "x", "succes": true}"#,
      "succes"
    ),
    (
      #"{"at": "1s", "do": "reportContinuedProgress", "identifier": "x", "add": -1}"#,
      "timeline[1].add"
    ),
  ])
  func refuses(entry: String, message: String) {
    let text = Self.scenario(entry + (entry.contains("submit") ? "" : ", " + Self.submit))
    let problems = loaderProblems(text)
    #expect(problems.contains { $0.contains(message) }, "\(problems)")
  }

  @Test("the user's cancel is not an app action: a reaction cannot do it")
  func cancelIsTheUsers() {
    let text = Self.scenario(
      Self.submit,
      reactions:
        #"{"event": "didFinishDownloading", "do": [{"do": "cancelContinuedProcessing", "identifier": "x"}]}"#)
    #expect(loaderProblems(text).contains { $0.contains("is an action of the user or the system") })
  }

  @Test("the scripted app's progress adds up; its expiration handler completes the task")
  func scriptedRun() throws {
    let text = Self.scenario(
      Self.submit + #"""
        , {"at": "1s", "do": "reportContinuedProgress", "identifier": "x", "add": 2, "total": 5},
          {"at": "2s", "do": "reportContinuedProgress", "identifier": "x", "add": 3},
          {"at": "3s", "do": "background"}
        """#)
    let result = ScenarioRunner.run(try loadScenario(text))
    let progress = result.trace.events.filter { $0.kind == "continued.progress" }
    #expect(progress.map { $0["completed"] } == [.int(2), .int(5)])
    #expect(progress.map { $0["total"] } == [.int(5), .int(5)])
    // 5 of 5 and never completed: the window passes at 32 s.
    let lints = result.trace.events.filter { $0.kind == "lint" }.map { $0["rule"]?.description }
    #expect(lints == ["continuedTaskNeverCompleted"])
    let end = try #require(result.trace.events.first { $0.kind == "continued.end" })
    #expect(end.time == SimTime(.seconds(32)))
    #expect(end["result"] == .string("expired"))
    #expect(result.trace.events.first { $0.kind == "app.suspend" }?.time == SimTime(.seconds(32)))
  }

  /// `continuedProcessingStarted`: the launch handler runs when the system starts the task (at
  /// once, or later for a queued one); `task` matches the request's identifier.
  @Test("a continuedProcessingStarted reaction runs when a queued task starts, not when it is submitted")
  func startedReaction() throws {
    let text = #"""
      {"name": "t", "duration": "1h", "policy": {"continuedProcessing": {"maxRunning": 1}},
       "server": {"resources": [{"url": "https://h/a", "size": "1MB"}]},
       "app": {"sessions": [{"identifier": "S"}], "behavior": {"on": [
         {"event": "continuedProcessingStarted", "task": "second",
          "do": [{"do": "reportContinuedProgress", "identifier": "second", "add": 0, "total": 7},
                 {"do": "download", "session": "S", "url": "https://h/a", "name": "started-{n}"}]}]}},
       "timeline": [{"at": "0s", "do": "launch"},
         {"at": "1s", "do": "submitContinuedProcessing", "identifier": "first", "title": "One"},
         {"at": "1s", "do": "submitContinuedProcessing", "identifier": "second", "title": "Two"},
         {"at": "5s", "do": "completeContinuedProcessing", "identifier": "first"}]}
      """#
    let result = ScenarioRunner.run(try loadScenario(text))
    let starts = result.trace.events.filter { $0.kind == "continued.start" }
    #expect(starts.map { $0["identifier"]?.description } == ["first", "second"])
    #expect(starts.last?.time == SimTime(.seconds(5)))
    // The reaction ran once, for `second` only, at its start.
    let progress = result.trace.events.filter { $0.kind == "continued.progress" }
    #expect(progress.map { $0["identifier"]?.description } == ["second"])
    #expect(progress.first?.time == SimTime(.seconds(5)) && progress.first?["total"] == .int(7))
    let created = result.trace.events.filter { $0.kind == "task.created" }
    #expect(created.map { $0["task"]?.description } == ["started-1"])
    #expect(created.first?.time == SimTime(.seconds(5)))
  }

  @Test("a continuedProcessingStarted reaction cannot use {task}: the identifier is literal")
  func startedReactionRefusesTaskPlaceholder() {
    let text = Self.scenario(
      Self.submit,
      reactions: #"""
        {"event": "continuedProcessingStarted",
         "do": [{"do": "download", "session": "S", "url": "https://h/a", "name": "{task}-x"}]}
        """#)
    #expect(
      loaderProblems(text).contains { $0.contains("'continuedProcessingStarted' callback concerns no task") })
  }
}
