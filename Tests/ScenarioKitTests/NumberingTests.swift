import SimKernel
import Testing
import TransferEngine

@testable import ScenarioKit

/// `count` and `firstNumber` number the tasks of every timeline action that creates tasks
/// (`download`, `upload`, `resumeFromData`) the same way; reactions refuse both.
@Suite struct NumberingTests {
  static func scenario(_ timeline: String, reaction: String = "") -> String {
    #"""
    {"name": "n", "duration": "2h",
     "server": {"resources": [{"url": "https://h/e{n}", "count": 12, "size": "40MB", "etag": "v1"},
                              {"url": "https://h/u{n}", "count": 2, "method": "POST"}]},
     "app": {"sessions": [{"identifier": "S"}], "behavior": {"on": [\#(reaction)]}},
     "timeline": [{"at": "0s", "do": "launch"}\#(timeline)]}
    """#
  }

  func load(_ text: String) throws(ScenarioErrors) -> Scenario { try loadScenario(text) }

  func problems(_ text: String) -> [String] { loaderProblems(text) }

  func created(_ text: String) throws -> [String] {
    let result = ScenarioRunner.run(try load(text))
    #expect(result.runError == nil, "\(result.runError ?? "")")
    return result.trace.events.filter { $0.is(.taskCreated) }.compactMap { $0["task"]?.description }
  }

  @Test("a numbered resource's redirect names its own numbered target; a literal one is kept for every copy")
  func numberedRedirectTargets() throws {
    let text = #"""
      {"name": "r", "duration": "1h",
       "server": {"resources": [{"url": "https://h/f{n}", "count": 3, "size": "1KB", "status": 301, "redirectTo": "https://h/g{n}"},
                                {"url": "https://h/g1", "size": "10KB"}, {"url": "https://h/g2", "size": "20KB"},
                                {"url": "https://h/g3", "size": "30KB"},
                                {"url": "https://h/a{n}", "count": 2, "size": "1KB", "status": 302, "redirectTo": "https://h/g1"}]},
       "app": {"sessions": [{"identifier": "S"}]},
       "timeline": [{"at": "0s", "do": "launch"},
                    {"at": "1s", "do": "download", "session": "S", "url": "https://h/f{n}", "name": "f{n}", "count": 3},
                    {"at": "1s", "do": "download", "session": "S", "url": "https://h/a2", "name": "a2"}]}
      """#
    let scenario = try load(text)
    let redirects = scenario.server.resources.compactMap { r in
      r.redirectTo.map { "\(r.url.string)>\($0.string)" }
    }
    #expect(
      redirects == [
        "https://h/f1>https://h/g1", "https://h/f2>https://h/g2", "https://h/f3>https://h/g3",
        "https://h/a1>https://h/g1", "https://h/a2>https://h/g1",
      ])
    let result = ScenarioRunner.run(scenario)
    let finished = result.trace.events.filter { $0.is(.taskFinished) }
    let bytes = Dictionary(
      uniqueKeysWithValues: finished.map { ($0["task"]!.description, $0["bytes"]!.description) })
    #expect(bytes == ["f1": "10000", "f2": "20000", "f3": "30000", "a2": "10000"])
    #expect(finished.allSatisfy { $0["status"] == .int(200) })
  }

  @Test func downloadAndUploadNumberFromFirstNumber() throws {
    let text = Self.scenario(
      #"""
      , {"at": "1s", "do": "download", "session": "S", "url": "https://h/e{n}", "name": "d-{n}", "count": 3,
         "firstNumber": 5},
        {"at": "2s", "do": "upload", "session": "S", "url": "https://h/u{n}", "name": "u-{n}", "count": 2,
         "firstNumber": 0, "from": "file", "size": "1MB"}
      """#)
    #expect(try created(text) == ["d-5", "d-6", "d-7", "u-0", "u-1"])
  }

  /// `count: 1` with `{n}` names one task `...-1` (or `firstNumber`), never a literal `{n}`.
  @Test func countOfOneStillNumbers() throws {
    let text = Self.scenario(
      #", {"at": "1s", "do": "download", "session": "S", "url": "https://h/e{n}", "name": "d-{n}", "count": 1}"#
    )
    #expect(try created(text) == ["d-1"])
  }

  @Test func resumeFromDataResumesANumberedRangeFromItsResumeData() throws {
    let text = Self.scenario(
      #"""
      , {"at": "1s", "do": "download", "session": "S", "url": "https://h/e{n}", "name": "ep-{n}", "count": 4},
        {"at": "5s", "do": "cancel", "task": "ep-2", "produceResumeData": true},
        {"at": "5s", "do": "cancel", "task": "ep-3", "produceResumeData": true},
        {"at": "5s", "do": "cancel", "task": "ep-4", "produceResumeData": true},
        {"at": "1m", "do": "resumeFromData", "task": "ep-{n}", "name": "again-{n}", "count": 3, "firstNumber": 2}
      """#)
    let result = ScenarioRunner.run(try load(text))
    #expect(result.runError == nil)
    let resumed = result.trace.events.filter { $0.is(.delegateDidResumeAtOffset) }
    #expect(resumed.map { $0["task"]?.description } == ["again-2", "again-3", "again-4"])
    for event in resumed {
      guard case .int(let offset)? = event["offset"] else {
        Issue.record("no offset")
        continue
      }
      #expect(offset > 0)
    }
    #expect(!result.trace.events.contains { $0["task"]?.description == "again-1" })
  }

  @Test(arguments: [
    (
      #", {"at": "1s", "do": "download", "session": "S", "url": "https://h/e1", "name": "d", "firstNumber": 2}"#,
      "s.json: timeline[1].firstNumber: 'firstNumber' numbers the tasks of 'count'; add \"count\" (1 for a single numbered task)"
    ),
    (
      #", {"at": "1s", "do": "resumeFromData", "task": "ep-{n}", "name": "r"}"#,
      "s.json: timeline[1].task: '{n}' numbers the tasks of a reaction or of an entry with 'count'; this task needs a literal name"
    ),
    (
      #", {"at": "1s", "do": "resumeFromData", "task": "ep-{n}", "name": "r", "count": 2}"#,
      "s.json: timeline[1].name: 'count' resumes 2 tasks, so 'name' needs '{n}' (like \"r-{n}\") to name a different task each time"
    ),
    (
      #", {"at": "1s", "do": "resumeFromData", "task": "ep", "name": "r-{n}", "count": 2}"#,
      "s.json: timeline[1].task: 'count' resumes 2 tasks, so 'task' needs '{n}' (like \"ep-{n}\") to name a different task each time"
    ),
    (
      #", {"at": "1s", "do": "resumeFromData", "task": "ep-{n}", "name": "r-{n}", "count": 0}"#,
      "s.json: timeline[1].count"
    ),
    (
      #", {"at": "1s", "do": "resumeFromData", "task": "ep-{n}", "name": "r-{n}", "count": 2, "firstNumber": -1}"#,
      "s.json: timeline[1].firstNumber"
    ),
  ])
  func timelineNumberingErrors(_ timeline: String, _ message: String) {
    let lines = problems(
      Self.scenario(
        #", {"at": "0s", "do": "download", "session": "S", "url": "https://h/e{n}", "name": "ep-{n}", "count": 2}"#
          + timeline.replacingOccurrences(of: "timeline[1]", with: "timeline[2]")))
    let expected = message.replacingOccurrences(of: "timeline[1]", with: "timeline[2]")
    #expect(lines.contains { $0.hasPrefix(expected) }, "\(lines)")
  }

  @Test(arguments: ["count", "firstNumber"], ["download", "resumeFromData"])
  func reactionsRefuseNumbering(_ key: String, _ action: String) {
    let fields =
      action == "download"
      ? #""session": "S", "url": "https://h/e1", "name": "x-{n}""# : #""task": "{task}", "name": "{task}-r""#
    let reaction = #"{"event": "didComplete", "do": [{"do": "\#(action)", \#(fields), "\#(key)": 2}]}"#
    let lines = problems(
      Self.scenario(
        #", {"at": "1s", "do": "download", "session": "S", "url": "https://h/e1", "name": "a"}"#,
        reaction: reaction))
    #expect(
      lines.contains {
        $0.contains("app.behavior.on[0].do[0].\(key): '\(key)' numbers the tasks of a timeline entry")
      }, "\(lines)")
  }
}
