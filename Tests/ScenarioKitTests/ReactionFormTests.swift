import SimKernel
import Testing
import TransferEngine

@testable import ScenarioKit

/// Reactions that say what app engineers mean: `{task}`, `error` filters and
/// `resumeFromData`'s `withoutResumeData` fallback.
@Suite struct ReactionFormTests {
  static func scenario(reaction: String, timeline: String = "", expect: String = "") -> String {
    #"""
    {"name": "r", "server": {"resources": [{"url": "https://h/a", "size": 1}]},
     "app": {"sessions": [{"identifier": "S"}], "behavior": {"on": [\#(reaction)]}},
     "timeline": [{"at": "0s", "do": "launch"},
                  {"at": "1s", "do": "download", "session": "S", "url": "https://h/a", "name": "ep-1"}\#(timeline)],
     "expect": [\#(expect)]}
    """#
  }

  static let resume =
    #"{"do": "resumeFromData", "task": "{task}", "name": "{task}-again", "withoutResumeData": "download"}"#

  func load(_ text: String) throws(ScenarioErrors) -> Scenario { try loadScenario(text) }

  func problems(_ text: String) -> [String] { loaderProblems(text) }

  @Test(arguments: [
    (#""cancelled""#, ErrorFilter.code(.cancelled)), ("-1005", .code(.networkConnectionLost)),
    (#""none""#, .success), (#""userForceQuitApplication""#, .cancelReason(.userForceQuitApplication)),
  ])
  func errorForms(_ json: String, _ filter: ErrorFilter) throws {
    let text = Self.scenario(
      reaction: #"{"event": "didComplete", "error": \#(json), "do": [\#(Self.resume)]}"#,
      expect: #"{"task": "ep-1-again", "state": "completed"}"#)
    let reaction = try #require(try load(text).app.behavior.reactions.first)
    #expect(reaction.error == filter)
    if case .resumeFromData(let task, let name, let fallback, _, _) = reaction.actions.first {
      #expect(task == "{task}" && name == "{task}-again" && fallback == .download)
    } else {
      Issue.record("expected resumeFromData")
    }
  }

  @Test("ErrorFilter: success, code and cancel reason each match their completions only")
  func matching() {
    let quit = SimURLError(.cancelled, cancelReason: .userForceQuitApplication)
    let cancelled = SimURLError(.cancelled)
    #expect(ErrorFilter.success.matches(nil) && !ErrorFilter.success.matches(cancelled))
    #expect(ErrorFilter.code(.cancelled).matches(quit) && ErrorFilter.code(.cancelled).matches(cancelled))
    #expect(!ErrorFilter.code(.timedOut).matches(cancelled) && !ErrorFilter.code(.cancelled).matches(nil))
    let reason = ErrorFilter.cancelReason(.userForceQuitApplication)
    #expect(reason.matches(quit) && !reason.matches(cancelled))
  }

  @Test(arguments: [
    (
      #"{"event": "didComplete", "error": "canceled", "do": [{"do": "getAllTasks", "session": "S"}]}"#,
      "s.json: app.behavior.on[0].error: unknown error 'canceled'; did you mean 'cancelled'?"
    ),
    (
      #"{"event": "didComplete", "error": -1, "do": [{"do": "getAllTasks", "session": "S"}]}"#,
      "s.json: app.behavior.on[0].error: no error has code -1; expected \"none\", an error code (cancelled, timedOut, networkConnectionLost, httpTooManyRedirects, notConnectedToInternet, backgroundSessionRequiresSharedContainer, backgroundSessionInUseByAnotherProcess, backgroundSessionWasDisconnected, cannotWriteToFile or its number such as -999) or a cancel reason (userForceQuitApplication, backgroundUpdatesDisabled, insufficientSystemResources)"
    ),
    (
      #"{"event": "didFinishDownloading", "error": "cancelled", "do": [{"do": "getAllTasks", "session": "S"}]}"#,
      "s.json: app.behavior.on[0].error: 'error' filters 'didComplete' reactions; a 'didFinishDownloading' callback carries no error"
    ),
    (
      #"{"event": "didLaunch", "do": [{"do": "cancel", "task": "{task}"}]}"#,
      "s.json: app.behavior.on[0].do[0].task: '{task}' names the task that triggered the reaction; a 'didLaunch' callback concerns no task, so use 'didFinishDownloading' or 'didComplete'"
    ),
    (
      #"{"event": "didComplete", "do": [{"do": "download", "session": "S", "url": "https://h/{task}", "name": "x{n}"}]}"#,
      "s.json: app.behavior.on[0].do[0].url: '{task}' may appear in a reaction's 'task', 'name' and 'description' only"
    ),
    (
      #"{"event": "didComplete", "do": [{"do": "resumeFromData", "task": "{task}", "name": "b{n}", "withoutResumeData": "retry"}]}"#,
      "s.json: app.behavior.on[0].do[0].withoutResumeData: unknown fallback 'retry'; expected one of skip, download"
    ),
  ])
  func refused(_ reaction: String, _ message: String) {
    #expect(problems(Self.scenario(reaction: reaction)) == [message])
  }

  @Test("{task} is refused in a timeline entry")
  func timelineTask() {
    let text = Self.scenario(
      reaction: #"{"event": "didComplete", "do": [{"do": "getAllTasks", "session": "S"}]}"#,
      timeline: #", {"at": "2s", "do": "cancel", "task": "{task}"}"#)
    #expect(
      problems(text) == [
        "s.json: timeline[2].task: '{task}' names the task that triggered a reaction; a timeline entry has none, so write the name"
      ])
  }

  @Test("a name made with {task} satisfies references to any name with its literal parts")
  func references() {
    let text = Self.scenario(
      reaction: #"{"event": "didComplete", "do": [\#(Self.resume)]}"#,
      expect: #"{"task": "ep-1-again", "state": "completed"}"#)
    #expect(problems(text).isEmpty)
    #expect(
      problems(text.replacingOccurrences(of: "ep-1-again\"", with: "ep-1-agai\"")) == [
        "s.json: expect[0].task: no download, upload or resumeFromData creates a task named 'ep-1-agai'"
      ])
  }

  @Test("withoutResumeData: download creates the task again from zero; skip leaves only the note")
  func fallbackRuns() throws {
    let cancel = #", {"at": "1.01s", "do": "cancel", "task": "ep-1"}"#
    let reaction = #"{"event": "didComplete", "error": "cancelled", "task": "ep-1", "do": [\#(Self.resume)]}"#
    let run = ScenarioRunner.run(try load(Self.scenario(reaction: reaction, timeline: cancel)))
    let kinds = run.trace.events.filter { $0["task"] == "ep-1" || $0["task"] == "ep-1-again" }.map {
      "\($0.kind) \($0["task"]!)"
    }
    #expect(kinds.contains("app.resumeDataUnavailable ep-1"))
    #expect(kinds.contains("task.finished ep-1-again"))
    let skip = Self.scenario(
      reaction: reaction.replacingOccurrences(of: #""download""#, with: #""skip""#), timeline: cancel)
    let skipped = ScenarioRunner.run(try load(skip))
    #expect(skipped.trace.events.contains { $0.is(.appResumeDataUnavailable) })
    #expect(!skipped.trace.events.contains { $0["task"] == "ep-1-again" })
  }
}

/// Task expectations over `*` patterns (`all`/`any`), and the message for a task never created.
@Suite struct TaskPatternExpectationTests {
  /// Three downloads; `b` is cancelled, so not every `t-*` completes.
  static func scenario(_ expect: String) -> String {
    #"""
    {"name": "g", "server": {"resources": [{"url": "https://h/a", "size": "1MB"}]},
     "app": {"sessions": [{"identifier": "S"}]},
     "timeline": [{"at": "0s", "do": "launch"},
                  {"at": "1s", "do": "download", "session": "S", "url": "https://h/a", "name": "t-a"},
                  {"at": "1s", "do": "download", "session": "S", "url": "https://h/a", "name": "t-b"},
                  {"at": "1s", "do": "download", "session": "S", "url": "https://h/a", "name": "t-c"},
                  {"at": "1.01s", "do": "cancel", "task": "t-b"},
                  {"at": "2s", "do": "resumeFromData", "task": "t-b", "name": "t-b2"}],
     "expect": [\#(expect)]}
    """#
  }

  func verdicts(_ expect: String) throws -> [ExpectationResult] {
    ScenarioRunner.run(try ScenarioLoader.load(data: Array(Self.scenario(expect).utf8), file: "g.json"))
      .expectations
  }

  @Test("all: every matching task must hold; any: one is enough; no match fails")
  func quantifiers() throws {
    let results = try verdicts(
      #"""
      {"task": "t-*", "all": true, "state": "completed"}, {"task": "t-*", "any": true, "state": "completed"},
      {"task": "t-*", "any": true, "state": "cancelled"}, {"task": "x*", "any": true, "state": "completed"}
      """#)
    #expect(results.map(\.passed) == [false, true, true, false])
    #expect(results[0].expected == "all tasks 't-*': completed")
    #expect(
      results[0].found.hasPrefix("1 of 3 matching tasks do not; the first: task 't-b' is cancelled since "))
    #expect(results[3].found == "no task matches 'x*'")
  }

  @Test("a task never created says so, and names the resumeFromData that found no resume data")
  func neverCreated() throws {
    let result = try #require(try verdicts(#"{"task": "t-b2", "state": "completed"}"#).first)
    #expect(!result.passed)
    #expect(
      result.found
        == "task 't-b2' was never created; resumeFromData found no resume data for 't-b' at 2s (timeline[5]), "
        + "so the app created no task from it")
    #expect(result.nearby.allSatisfy { $0.is(.appResumeDataUnavailable) } && !result.nearby.isEmpty)
  }

  @Test(arguments: [
    (
      #"{"task": "t-*", "state": "completed"}"#,
      "g.json: expect[0]: task pattern 't-*' needs \"all\": true (every matching task) or \"any\": true (at least one)"
    ),
    (
      #"{"task": "t-a", "all": true, "state": "completed"}"#,
      "g.json: expect[0]: 'all' and 'any' apply to a task pattern with '*'; 't-a' names one task, so leave them out"
    ),
    (
      #"{"task": "t-*", "all": true, "any": true, "state": "completed"}"#,
      "g.json: expect[0]: give one of \"all\": true and \"any\": true, not both"
    ),
  ])
  func refused(_ expect: String, _ message: String) {
    do {
      _ = try ScenarioLoader.load(data: Array(Self.scenario(expect).utf8), file: "g.json")
      Issue.record("expected a problem")
    } catch {
      #expect(error.lines == [message])
    }
  }
}

/// `{"app": "state", "at": ..., "equals": ...}`: the app's state at an instant, from the trace.
@Suite struct AppStateExpectationTests {
  static func verdicts(_ expect: String) throws -> [ExpectationResult] {
    let text = #"""
      {"name": "s", "duration": "1h", "timeline": [{"at": "1m", "do": "launch"}, {"at": "2m", "do": "background"},
        {"at": "10m", "do": "terminate"}], "expect": [\#(expect)]}
      """#
    return ScenarioRunner.run(try ScenarioLoader.load(data: Array(text.utf8), file: "s.json")).expectations
  }

  @Test(arguments: [
    ("30s", "notRunning"), ("1m", "foreground"), ("2m1s", "background"), ("5m", "suspended"),
    ("10m", "notRunning"),
  ])
  func holds(_ at: String, _ state: String) throws {
    let results = try Self.verdicts(#"{"app": "state", "at": "\#(at)", "equals": "\#(state)"}"#)
    #expect(results.map(\.passed) == [true])
  }

  @Test("a wrong state says what it was and since when")
  func fails() throws {
    let result = try #require(
      try Self.verdicts(#"{"app": "state", "at": "5m", "equals": "foreground"}"#).first)
    #expect(!result.passed)
    #expect(result.expected == "app foreground at 5m")
    #expect(result.found == "it is suspended at 5m since 2m5s")
    #expect(result.nearby.last?.is(.appSuspend) == true)
  }
}

/// `startsAt` and instants written as times of day.
@Suite struct TimeOfDayTests {
  static func load(_ fields: String) throws(ScenarioErrors) -> Scenario {
    let text =
      #"{"name": "t", \#(fields), "duration": "1d", "timeline": [{"at": "22:00", "do": "launch"}, {"at": "06:30", "do": "background"}, {"at": "21:00:30", "do": "terminate"}]}"#
    return try ScenarioLoader.load(data: Array(text.utf8), file: "t.json")
  }

  @Test("a time of day is the first such time at or after the start, wrapping past midnight")
  func instants() throws {
    let scenario = try Self.load(#""startsAt": "2026-03-01T21:00:00""#)
    #expect(scenario.startsAt == "2026-03-01T21:00:00")
    #expect(
      scenario.timeline.map(\.at) == [SimTime(.seconds(30)), SimTime(.hours(1)), SimTime(.seconds(34_200))])
  }

  @Test(arguments: [
    (
      "",
      "t.json: timeline[0].at: a time of day like '22:00' needs the scenario's start: add \"startsAt\": \"2026-03-01T21:00:00\" at the top level"
    ),
    (
      #""startsAt": "2026-02-30T21:00:00","#,
      "t.json: startsAt: '2026-02-30T21:00:00' is not a date and time; expected a local date and time like \"2026-03-01T21:00:00\""
    ),
    (
      #""startsAt": "2026-03-01 21:00","#,
      "t.json: startsAt: '2026-03-01 21:00' is not a date and time; expected a local date and time like \"2026-03-01T21:00:00\""
    ),
  ])
  func refused(_ fields: String, _ first: String) {
    do {
      _ = try Self.load(fields + #""seed": 1"#)
      Issue.record("expected a problem")
    } catch {
      #expect(error.lines.first == first)
    }
  }

  @Test(
    "a time of day with a fraction or a short part is refused as a time of day, not as a duration's unit",
    arguments: [
      ("06:00:00.5", "write \"HH:MM\" or \"HH:MM:SS\" (seconds are whole: no fraction)"),
      ("6:0", "write \"HH:MM\" or \"HH:MM:SS\", such as"),
      ("06:00:", "write \"HH:MM\" or \"HH:MM:SS\", such as"),
    ])
  func malformedTimeOfDay(_ at: String, _ fix: String) throws {
    let text =
      #"{"name": "t", "startsAt": "2026-03-01T05:00:00", "timeline": [{"at": "\#(at)", "do": "launch"}]}"#
    do {
      _ = try ScenarioLoader.load(data: Array(text.utf8), file: "t.json")
      Issue.record("expected a problem")
    } catch {
      let line = try #require(error.lines.first)
      #expect(line.hasPrefix("t.json: timeline[0].at: '\(at)' is not a time of day: \(fix)"), "\(line)")
      #expect(!line.contains("unknown unit"))
    }
    #expect(TimeOfDay.malformed("20m") == nil)
    #expect(TimeOfDay.malformed("06:00") == nil)
  }

  @Test("a time-of-day shape out of range is an error, not a duration")
  func outOfRange() {
    #expect(TimeOfDay.seconds("24:00") == .some(nil))
    #expect(TimeOfDay.seconds("10:61") == .some(nil))
    #expect(TimeOfDay.seconds("20m") == nil)
    #expect(TimeOfDay.seconds("9:05:07") == .some(32_707))
    #expect(TimeOfDay.start("2024-02-29T00:00") == 0)
    #expect(TimeOfDay.start("2023-02-29T00:00") == nil)
  }
}

/// `resumedAtOffset` with a byte range.
@Suite struct ByteRangeTests {
  static func expectation(_ value: String) throws(ScenarioErrors) -> ScenarioKit.Expectation.Form? {
    let text = #"""
      {"name": "b", "server": {"resources": [{"url": "https://h/a", "size": 1}]}, "app": {"sessions": [{"identifier": "S"}]},
       "timeline": [{"at": "0s", "do": "launch"}, {"at": "0s", "do": "download", "session": "S", "url": "https://h/a", "name": "a"}],
       "expect": [{"task": "a", "resumedAtOffset": \#(value)}]}
      """#
    return try ScenarioLoader.load(data: Array(text.utf8), file: "b.json").expectations.first?.form
  }

  @Test func forms() throws {
    guard case .resumedAtOffset(_, let exact)? = try Self.expectation(#""12MB""#),
      case .resumedAtOffset(_, let least)? = try Self.expectation(#"{"atLeast": "50MB"}"#)
    else {
      Issue.record("expected resumedAtOffset")
      return
    }
    #expect(exact == .equals(12_000_000) && least == .atLeast(50_000_000))
    #expect(least.holds(65_551_875) && !least.holds(49_999_999))
  }

  @Test func refused() {
    do {
      _ = try Self.expectation(#"{"atLeast": "1MB", "atMost": "2MB"}"#)
      Issue.record("expected a problem")
    } catch {
      #expect(
        error.lines == [
          "b.json: expect[0].resumedAtOffset: give one of equals, atLeast, atMost with a size, such as {\"atLeast\": \"50MB\"}"
        ])
    }
  }
}
