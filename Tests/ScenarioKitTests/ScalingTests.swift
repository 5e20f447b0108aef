import Foundation
import SimKernel
import Testing
import TransferEngine

@testable import ScenarioKit

/// Issue 26, "no quadratic path": what grows with the number of tasks is checked on structure
/// (passes over the trace, which dictionary the scripted app keeps), never on time.
@Suite struct ScalingTests {
  /// `n` downloads through one `count`, with `expect` as given.
  static func counted(_ n: Int, expect: String) -> String {
    #"""
    {"name": "counted", "duration": "1h",
     "server": {"resources": [{"url": "https://h/f-{n}", "count": \#(n), "size": "10KB"}]},
     "app": {"sessions": [{"identifier": "S", "kind": "background"}]},
     "timeline": [{"at": "0s", "do": "launch"},
                  {"at": "1s", "do": "download", "session": "S", "count": \#(n), "url": "https://h/f-{n}", "name": "f-{n}"}],
     "expect": [\#(expect)]}
    """#
  }

  func run(_ text: String) throws -> RunResult {
    ScenarioRunner.run(try ScenarioLoader.load(data: Array(text.utf8), file: "counted.json"))
  }

  @Test("a '*' expectation reads the trace once, however many tasks it matches, passing or failing")
  func patternExpectationsDoNotPassOverTheTracePerTask() throws {
    let expect =
      #"{"task": "f-*", "all": true, "state": "completed"}, {"task": "f-*", "any": true, "status": 404}"#
    var passes: [Int] = []
    for n in [3, 60] {
      let result = try run(Self.counted(n, expect: expect))
      #expect(result.runError == nil)
      let evaluator = ExpectationEvaluator(trace: result.trace, endTime: result.endTime)
      let verdicts = evaluator.evaluate(result.scenario.expectations)
      #expect(verdicts.map(\.passed) == [true, false])
      #expect(verdicts[1].found.hasPrefix("none of the \(n) matching tasks does; the first: status 200"))
      passes.append(evaluator.tracePasses)
    }
    // One pass builds the task index; the task forms read only it (the old evaluator made one
    // pass per matching task: 3 and 60 here).
    #expect(passes == [1, 1])
  }

  @Test(
    "the forms that are not about a task read their kind's events: one more pass for all of them, however many; a '*' kind reads the trace"
  )
  func otherFormsShareOnePass() throws {
    let one = [
      #"{"trace": "task.finished", "count": 5}"#, #"{"lint": "oneTaskPerWake", "present": false}"#,
      #"{"app": "userLaunches", "equals": 1}"#, #"{"app": "suspensions", "atLeast": 2}"#,
      #"{"app": "state", "at": "30m", "equals": "foreground"}"#,
      #"{"app": "state", "at": "0s", "equals": "background"}"#,
      #"{"rateLimiter": "delayAtWake", "wake": 1, "equals": "1m"}"#,
      #"{"trace": ["app.launch", "task.finished task=f-5"], "inOrder": true}"#,
    ]
    // Which hold, in order: the suspension count, the state at 0 s and the wake do not.
    let verdicts = [true, true, true, false, true, false, false, true]
    for copies in [1, 20] {
      let expect = Array(repeating: one, count: copies).joined().joined(separator: ", ")
      let result = try run(Self.counted(5, expect: expect))
      let evaluator = ExpectationEvaluator(trace: result.trace, endTime: result.endTime)
      let results = evaluator.evaluate(result.scenario.expectations)
      #expect(results.map(\.passed) == Array(Array(repeating: verdicts, count: copies).joined()))
      #expect(results[3].found == "0")
      #expect(results[6].found == "only 0 wake(s)")
      #expect(evaluator.tracePasses == 2)
    }
    // A kind with a '*' cannot be looked up: each such count reads the trace.
    let result = try run(
      Self.counted(
        5, expect: #"{"trace": "task.fin*", "count": 5}, "# + #"{"trace": "app.*", "count": {"atLeast": 1}}"#)
    )
    let evaluator = ExpectationEvaluator(trace: result.trace, endTime: result.endTime)
    #expect(evaluator.evaluate(result.scenario.expectations).allSatisfy { $0.passed })
    #expect(evaluator.tracePasses == 3)
  }

  @Test("N trace counts of one pattern read its events once, passing or failing")
  func oneReadPerTraceCountPattern() throws {
    for kind in ["task.finished", "task.fin*"] {
      let one = #"{"trace": "\#(kind)", "count": 8}"#
      let wrong = #"{"trace": "\#(kind)", "count": 7}"#
      let other = #"{"trace": "\#(kind) status=200", "count": 8}"#
      let expect = (Array(repeating: one, count: 20) + [wrong, other, other]).joined(separator: ", ")
      let result = try run(Self.counted(8, expect: expect))
      let evaluator = ExpectationEvaluator(trace: result.trace, endTime: result.endTime)
      let verdicts = evaluator.evaluate(result.scenario.expectations)
      #expect(verdicts.map(\.passed) == Array(repeating: true, count: 20) + [false, true, true])
      #expect(verdicts[20].found == "it occurs 8 time(s)")
      // The failure shows the last six it matched, as before the matches were kept.
      let finished = result.trace.events.filter { $0.kind == "task.finished" }
      #expect(verdicts[20].nearby == Array(finished.suffix(6)))
      #expect(evaluator.countedPatterns == 2, "'\(kind)' and '\(kind) status=200'")
      // The task index, then the kind index, or one read of the trace per pattern with a '*' kind.
      #expect(evaluator.tracePasses == (kind.hasSuffix("*") ? 3 : 2))
    }
  }

  @Test(
    "N trace counts of one kind that differ in a field's exact value read the kind's events once; a failing one shows the kind's last events"
  )
  func traceCountsByFieldValue() throws {
    let n = 40
    var expect = (1...n).map { #"{"trace": "task.created url=https://h/f-\#($0)", "count": 1}"# }
    // No task has this url: the verdict shows the last six events of the kind.
    expect.append(#"{"trace": "task.created url=https://h/none", "count": 1}"#)
    // Two fields given exactly: the first narrows, the second is still matched.
    expect.append(#"{"trace": "task.created url=https://h/f-3 taskKind=download", "count": 1}"#)
    expect.append(#"{"trace": "task.created url=https://h/f-3 taskKind=upload", "count": 0}"#)
    // A '*' value cannot be looked up: the kind's events are matched one by one.
    expect.append(#"{"trace": "task.created url=https://h/f-1*", "count": 11}"#)
    let result = try run(Self.counted(n, expect: expect.joined(separator: ", ")))
    let evaluator = ExpectationEvaluator(trace: result.trace, endTime: result.endTime)
    let verdicts = evaluator.evaluate(result.scenario.expectations)
    #expect(verdicts.map(\.passed) == Array(repeating: true, count: n) + [false, true, true, true])
    #expect(verdicts[n].found == "it occurs 0 time(s)")
    let created = result.trace.events.filter { $0.kind == "task.created" }
    #expect(verdicts[n].nearby == Array(created.suffix(6)))
    #expect(evaluator.kindFieldReads == 1, "one read of task.created by url, for every pattern")
    #expect(evaluator.tracePasses == 2, "the task index, then the kind index")
  }

  /// Whatever index a pattern is looked up in, it counts what matching it against every event
  /// counts.
  @Test("trace counts looked up by a field's value count what matching every event counts")
  func traceCountsAgreeWithMatchingEveryEvent() throws {
    let patterns = [
      "task.created url=https://h/f-7", "task.created url=https://h/f-1*", "task.created url=*-12",
      "task.created url=*f-1*", "task.created url=* taskKind=download",
      "task.created taskKind=download url=*-3", "task.* url=https://h/f-2", "task.* session=S",
      "*.didComplete status=200", "task.* url=https://h/f-2*", "delegate.* error=none status=2*",
      "task.finished status=404", "app.* reason=user", "task.created url=", "task.created url=https://nope/*",
      "task.created taskKind=download url=https://h/f-1*", "task.created url=f-1*",
    ]
    let first = try run(Self.counted(15, expect: ""))
    let expect = patterns.map { text in
      let count = first.trace.events.filter(TracePattern(text)!.matches).count
      return #"{"trace": "\#(text)", "count": \#(count)}"#
    }
    let result = try run(Self.counted(15, expect: expect.joined(separator: ", ")))
    let evaluator = ExpectationEvaluator(trace: result.trace, endTime: result.endTime)
    let verdicts = evaluator.evaluate(result.scenario.expectations)
    for (verdict, text) in zip(verdicts, patterns) {
      #expect(verdict.passed, "\(text): \(verdict.found)")
    }
    #expect(result.trace.events.filter(TracePattern("task.created url=https://h/f-1*")!.matches).count == 7)
  }

  /// A name in another Unicode normalization form is another name, as the trace writes it: a
  /// task's (the task index), a session's (the field index), a pattern's (the counts' memo).
  @Test("expectations tell names apart by their bytes: 'é' composed and decomposed are two names")
  func namesByBytes() throws {
    let composed = "\u{E9}"
    let decomposed = "e\u{301}"
    let session = "\u{E9}t\u{E9}"
    let text = #"""
      {"name": "forms", "duration": "1h",
       "server": {"resources": [{"url": "https://h/a", "size": "10KB"}, {"url": "https://h/b", "size": "10KB", "status": 404}]},
       "app": {"sessions": [{"identifier": "\#(session)", "kind": "background"}]},
       "timeline": [{"at": "0s", "do": "launch"},
                    {"at": "1s", "do": "download", "session": "\#(session)", "url": "https://h/a", "name": "\#(composed)"},
                    {"at": "2s", "do": "download", "session": "\#(session)", "url": "https://h/b", "name": "\#(decomposed)"}],
       "expect": [{"task": "\#(composed)", "status": 200}, {"task": "\#(decomposed)", "status": 404},
                  {"task": "\#(composed)*", "all": true, "status": 200},
                  {"trace": "task.finished task=\#(decomposed)*", "count": 1},
                  {"trace": "task.created session=\#(session)", "count": 2},
                  {"trace": "task.created session=e\u0301te\u0301", "count": 0}]}
      """#
    let (evaluator, verdicts) = try judged(text)
    #expect(verdicts.map(\.passed) == Array(repeating: true, count: 6), "\(verdicts.map(\.found))")
    #expect(evaluator.kindFieldReads == 1)
  }

  /// Runs the scenario `text` and judges its expectations.
  func judged(_ text: String) throws -> (ExpectationEvaluator, [ExpectationResult]) {
    let result = try run(text)
    #expect(result.runError == nil)
    let evaluator = ExpectationEvaluator(trace: result.trace, endTime: result.endTime)
    return (evaluator, evaluator.evaluate(result.scenario.expectations))
  }

  @Test(
    "a trace count naming tasks (exactly, or by a literal beginning or end) reads their events, not the trace; 'task=*' reads the trace"
  )
  func traceCountOfOneTask() throws {
    let expect = #"""
      {"trace": "task.finished task=f-2", "count": 1}, {"trace": "task.finished task=f-2 status=200", "count": 1},
      {"trace": "task.finished task=f-9", "count": 0}, {"trace": "task.finished task=f-*", "count": 5},
      {"trace": "task.finished task=*-3", "count": 1}, {"trace": "task.finished task=f*3", "count": 1}
      """#
    let result = try run(Self.counted(5, expect: expect))
    let evaluator = ExpectationEvaluator(trace: result.trace, endTime: result.endTime)
    let verdicts = evaluator.evaluate(result.scenario.expectations)
    #expect(verdicts.map(\.passed) == [true, true, true, true, true, true])
    #expect(evaluator.tracePasses == 1, "the index only")
    let all = ExpectationEvaluator(trace: result.trace, endTime: result.endTime)
    let any = try ScenarioLoader.load(
      data: Array(Self.counted(5, expect: #"{"trace": "task.finished task=*", "count": 5}"#).utf8),
      file: "c.json")
    #expect(all.evaluate(any.expectations).map(\.passed) == [true])
    #expect(all.tracePasses == 2, "the index, then the 'task=*' one")
  }

  @Test("a list of trace patterns naming tasks reads their events, in order or not, and fails as before")
  func traceListsOfTasks() throws {
    let expect = #"""
      {"trace": ["task.started task=f-1", "task.finished task=f-1", "task.finished task=f-3"]},
      {"trace": ["task.finished task=f-4", "task.started task=f-2", "task.finished task=f-*"], "inOrder": false},
      {"trace": ["task.finished task=f-3", "task.created task=f-3"]},
      {"trace": ["task.finished task=f-2", "task.finished task=f-9"], "inOrder": false}
      """#
    let result = try run(Self.counted(5, expect: expect))
    let evaluator = ExpectationEvaluator(trace: result.trace, endTime: result.endTime)
    let verdicts = evaluator.evaluate(result.scenario.expectations)
    #expect(verdicts.map(\.passed) == [true, true, false, false])
    #expect(
      verdicts[2].found
        == "'task.created task=f-3' did not occur after 'task.finished task=f-3' (it occurs earlier)")
    #expect(verdicts[3].found == "'task.finished task=f-9' did not occur after 'task.finished task=f-2'")
    #expect(evaluator.tracePasses == 1, "the index only")
  }

  @Test(
    "the names a '*' pattern can match, found by its literal beginning or end, are those every name tried gives"
  )
  func nameRangesAgreeWithTryingEveryName() {
    let names = [
      "f-1", "f-10", "f-2", "f-", "g-1", "épisode-3", "épisode-30", "e-3", "日本語", "日本", "a*b", "ab", "abab",
      "x",
    ]
    let ranges = NameRanges(names)
    let patterns = [
      "f-*", "*-1", "f*0", "é*", "*3", "e*", "日本*", "*語", "*本*", "a*b", "ab*ab", "*", "**", "*x*", "f-1*",
      "zz*",
      "*zz", "x*", "*x", "f-*-1",
    ]
    for pattern in patterns {
      let expected = names.filter { TracePattern.wildcardMatch(pattern, $0) }.sorted()
      let found = ranges.names(matching: pattern)
      if let found {
        #expect(found.sorted() == expected, "\(pattern)")
      } else {
        #expect(
          pattern.hasPrefix("*") && pattern.hasSuffix("*"), "\(pattern): nil only with '*' at both ends")
      }
    }
  }

  @Test("glob matching compares characters, also beyond ASCII, with '*' anywhere")
  func wildcardMatching() {
    let cases: [(String, String, Bool)] = [
      ("f-*", "f-12", true), ("f-*", "g-12", false), ("*", "", true), ("", "", true), ("a", "", false),
      ("épisode-*", "épisode-3", true), ("e*", "é", false), ("*é*", "café au lait", true),
      ("a*b*c", "aXbYc", true), ("a*b*c", "aXbY", false), ("日本*", "日本語", true), ("*語", "日本語", true),
      ("f-?", "f-1", false), ("task*", "task", true),
    ]
    for (pattern, text, expected) in cases {
      #expect(TracePattern.wildcardMatch(pattern, text) == expected, "\(pattern) ~ \(text)")
    }
  }

  @Test("the task index keeps each task's events in order and the created tasks once each")
  func taskIndex() {
    func event(_ kind: TraceKind, _ task: String) -> TraceEvent {
      TraceEvent(time: .zero, kind: kind.rawValue, fields: [TraceField("task", .string(task))])
    }
    let events = [
      event(.appResumeDataUnavailable, "b"), event(.taskCreated, "a"), event(.taskStarted, "a"),
      event(.taskCreated, "b"), event(.taskCreated, "a"), event(.taskFinished, "b"),
      TraceEvent(time: .zero, kind: TraceKind.appLaunch.rawValue, fields: []),
    ]
    let index = TaskEventIndex(events)
    #expect(index.created == ["a", "b"])
    #expect(index.events(of: "a").map(\.kind) == ["task.created", "task.started", "task.created"])
    #expect(
      index.events(of: "b").map(\.kind) == ["app.resumeDataUnavailable", "task.created", "task.finished"])
    #expect(index.events(of: "c").isEmpty)
    #expect(index.wasCreated("b") && !index.wasCreated("c"))
    #expect(index.lastCreations(2).map { $0["task"]?.description } == ["b", "a"])
  }

  @Test("a glob that matches no task fails and names the glob, whatever the form and quantifier")
  func aGlobMatchingNoTaskFails() throws {
    let forms = [
      #"{"task": "ep-#*", "all": true, "state": "completed"}"#,
      #"{"task": "ep-#*", "all": true, "state": "suspended"}"#,
      #"{"task": "ep-#*", "any": true, "status": 200}"#,
      #"{"task": "ep-#*", "all": true, "error": "cancelled"}"#,
      #"{"task": "ep-#*", "all": true, "startsAfter": "0s"}"#,
      #"{"task": "ep-#*", "all": true, "resumedAtOffset": {"atLeast": "1KB"}}"#,
    ]
    let result = try run(Self.counted(2, expect: forms.joined(separator: ", ")))
    #expect(result.expectations.count == forms.count)
    for verdict in result.expectations {
      #expect(!verdict.passed)
      #expect(verdict.found == "no task matches 'ep-#*'")
      #expect(verdict.expected.contains("tasks 'ep-#*': "))
    }
    #expect(!result.passed)
  }

  @Test("{n} and {task} are filled in the same way on ASCII and on other text")
  func substitution() {
    #expect("f-{n}.bin".replacingAll("{n}", with: "12") == "f-12.bin")
    #expect("{n}{n}x{n".replacingAll("{n}", with: "7") == "77x{n")
    #expect("no braces".replacingAll("{n}", with: "7") == "no braces")
    #expect("épisode-{n}".replacingAll("{n}", with: "3") == "épisode-3")
    #expect("{task}-again".replacingAll("{task}", with: "ép") == "ép-again")
    #expect("a\r\n{n}".replacingAll("{n}", with: "1") == "a\r\n1")
  }

  @Test("the scripted benchmark's app creates and finishes every task, and its expectation holds")
  func scriptedBenchmark() {
    let outcome = ScriptedBenchmark.run(tasks: 40)
    #expect(outcome.passed)
    #expect(outcome.tasks == 40)
    #expect(outcome.budgetExceeded == nil)
    #expect(outcome.events > 40 && outcome.traceEvents > 40 * 5)
  }

  @Test("the benchmark's blocked queue: the tasks behind the blocked ones all finish, the blocked ones wait")
  func scriptedBlocked() {
    let outcome = ScriptedBenchmark.runBlocked(blocked: 30)
    #expect(outcome.passed)
    #expect(outcome.tasks == 30)
    #expect(outcome.budgetExceeded == nil)
    #expect(outcome.events > ScriptedBenchmark.blockedFollowers)
  }

  @Test("the benchmark's runaway is stopped by a budget, naming which")
  func scriptedRunaway() {
    let outcome = ScriptedBenchmark.runaway(budget: RunBudget(maxTraceEvents: 3_000))
    #expect(!outcome.passed)
    #expect(outcome.budgetExceeded == .traceEvents)
    #expect(outcome.traceEvents > 3_000 && outcome.traceEvents < 3_100)
    #expect(outcome.tasks > 100)
  }
}
