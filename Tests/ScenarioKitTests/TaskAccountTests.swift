import Foundation
import ScenarioKit
import SimKernel
import Testing
import TransferEngine

/// `TaskAccounts`: the intervals of each task's life read from the trace, the one computation
/// behind `bgsim run`'s table, `bgsim explain`, the report's table and the sweep's wait columns.
@Suite struct TaskAccountTests {
  static func at(_ seconds: Int64) -> SimTime { SimTime(.seconds(seconds)) }

  static func event(_ seconds: Int64, _ kind: TraceKind, _ fields: [(String, TraceValue)]) -> TraceEvent {
    TraceEvent(time: at(seconds), kind: kind.name, fields: fields.map { TraceField($0.0, $0.1) })
  }

  /// A background download's whole life: every activity once.
  static let life: [TraceEvent] = [
    event(1, .taskCreated, [("task", "a"), ("session", "S")]),
    event(2, .taskResume, [("task", "a"), ("session", "S")]),
    event(2, .taskDeferred, [("task", "a"), ("reason", "rateLimiter"), ("until", .duration(.seconds(60)))]),
    event(60, .taskStarted, [("task", "a")]),
    event(70, .taskStalled, [("task", "a"), ("bytes", 10)]),
    event(75, .taskFlowing, [("task", "a"), ("bytes", 10)]),
    event(80, .taskInterrupted, [("task", "a"), ("reason", "networkLost"), ("bytes", 20)]),
    event(90, .taskDeferred, [("task", "a"), ("reason", "discretionary"), ("missing", "wifi,charging")]),
    event(100, .taskDeferred, [("task", "a"), ("reason", "discretionary"), ("missing", "charging")]),
    event(200, .taskRetry, [("task", "a"), ("attempt", 2)]),
    event(210, .taskFinished, [("task", "a"), ("bytes", 500)]),
    event(300, .delegateDidComplete, [("task", "a"), ("error", "none")]),
  ]

  @Test(
    "each trace event opens the interval of what the task does next, contiguous from creation to delivery")
  func wholeLife() throws {
    let accounts = TaskAccounts.compute(Self.life, endTime: Self.at(400), wasted: ["a": 7])
    let a = try #require(accounts.first)
    #expect(accounts.count == 1)
    let expected: [(TaskAccount.Activity, Int64, Int64)] = [
      (.notResumed, 1, 2), (.queued, 2, 2), (.waiting(.rateLimiter), 2, 60), (.transferring, 60, 70),
      (.stalled, 70, 75), (.transferring, 75, 80), (.backoff, 80, 90), (.waiting(.discretionary), 90, 100),
      (.waiting(.discretionary), 100, 200), (.transferring, 200, 210), (.awaitingDelivery, 210, 300),
    ]
    #expect(a.intervals.map(\.activity) == expected.map(\.0))
    #expect(a.intervals.map(\.start) == expected.map { Self.at($0.1) })
    #expect(a.intervals.map(\.end) == expected.map { Self.at($0.2) })
    #expect(a.intervals.map(\.opening) == Array(0..<11))
    #expect(a.intervals.last?.closing == 11)
    #expect(a.created == Self.at(1) && a.firstStarted == Self.at(60))
    #expect(a.ended == Self.at(210) && a.delivered == Self.at(300) && a.outcome == .finished)
    #expect(a.total == .seconds(299))
    #expect(a.bytes == 500 && a.bytesWasted == 7)
    #expect(a.time(in: .waiting(.discretionary)) == .seconds(110))
    #expect(a.time(in: .transferring) == .seconds(25))
    #expect(a.missingConditions == ["wifi", "charging"])
    #expect(a.breakdown.first?.activity == .waiting(.discretionary))
    #expect(a.breakdown.map(\.time).reduce(.zero, +) == a.total)
  }

  @Test("a lost task ends at its loss, never delivered; an unfinished one runs to the end of the run")
  func lostAndUnfinished() throws {
    let events = [
      Self.event(0, .taskCreated, [("task", "lost"), ("session", "D")]),
      Self.event(0, .taskCreated, [("task", "open"), ("session", "B")]),
      Self.event(1, .taskResume, [("task", "lost")]),
      Self.event(1, .taskResume, [("task", "open")]),
      Self.event(1, .taskStarted, [("task", "lost")]),
      Self.event(1, .taskDeferred, [("task", "open"), ("reason", "connectivity")]),
      Self.event(5, .taskLost, [("task", "lost"), ("reason", "appTerminated")]),
    ]
    let accounts = TaskAccounts.compute(events, endTime: Self.at(50))
    let lost = try #require(accounts.first { $0.task == "lost" })
    #expect(lost.outcome == .lost && lost.delivered == nil && lost.total == .seconds(5))
    #expect(lost.intervals.last?.activity == .transferring && lost.intervals.last?.closing == 6)
    let open = try #require(accounts.first { $0.task == "open" })
    #expect(open.outcome == .unfinished && open.ended == nil && open.total == .seconds(50))
    #expect(open.intervals.last?.activity == .waiting(.connectivity) && open.intervals.last?.closing == nil)
  }

  /// Two tasks whose names differ only in their Unicode form are two tasks, as the run tells
  /// them apart: each event goes to its own task's account.
  @Test("accounts tell task names apart by their bytes")
  func namesByBytes() throws {
    let composed = "\u{E9}"
    let decomposed = "e\u{301}"
    let events = [
      Self.event(0, .taskCreated, [("task", .string(composed)), ("session", "S")]),
      Self.event(1, .taskCreated, [("task", .string(decomposed)), ("session", "S")]),
      Self.event(2, .taskResume, [("task", .string(composed))]),
      Self.event(2, .taskStarted, [("task", .string(composed))]),
      Self.event(4, .taskFinished, [("task", .string(composed))]),
    ]
    let accounts = TaskAccounts.compute(events, endTime: Self.at(10))
    #expect(accounts.count == 2)
    #expect(accounts[0].task.hasSameUTF8(composed) && accounts[0].outcome == .finished)
    #expect(accounts[0].firstStarted == Self.at(2))
    #expect(accounts[1].task.hasSameUTF8(decomposed) && accounts[1].outcome == .unfinished)
    #expect(accounts[1].firstStarted == nil)
  }

  /// A run's accounts take each task's own wasted bytes (by creation order), not a sum by name:
  /// two tasks whose names differ only in their Unicode form waste what each threw away.
  @Test("a run's accounts carry each task's own wasted bytes, whatever its name")
  func wastedBytesPerTask() throws {
    let wifi = #"{"interface": "wifi", "down": "8Mbps", "up": "1Mbps", "latency": "20ms""#
    let text = """
      {"name": "waste", "duration": "1h",
       "device": {"network": [\(wifi), "at": "0s"}, {"at": "3s", "interface": "none"}, \(wifi), "at": "1m"}]},
       "server": {"resources": [{"url": "https://h/a", "size": "10MB"}, {"url": "https://h/b", "size": "10MB"}]},
       "app": {"sessions": [{"identifier": "S", "kind": "background"}]},
       "timeline": [{"at": "0s", "do": "launch"},
                    {"at": "1s", "do": "download", "session": "S", "url": "https://h/a", "name": "\u{E9}"},
                    {"at": "2s", "do": "download", "session": "S", "url": "https://h/b", "name": "e\u{301}"}]}
      """
    let result = ScenarioRunner.run(try ScenarioLoader.load(data: Array(text.utf8), file: "waste.json"))
    let accounts = TaskAccounts.compute(result)
    // Resources without a validator restart from zero after the loss: each throws away what it had.
    #expect(accounts.map(\.bytesWasted) == result.bytesWastedInCreationOrder)
    #expect(
      accounts.count == 2 && accounts[0].bytesWasted > accounts[1].bytesWasted && accounts[1].bytesWasted > 0)
    #expect(accounts[0].bytesWasted + accounts[1].bytesWasted == result.bytesWasted)
  }

  /// The map by name that `RunResult` and `Finding` offer is derived from the per-task list:
  /// tasks of one name sum (saturating), in the order of their `task.created` events.
  @Test("wasted bytes by name sum the tasks of each name, saturating")
  func wastedByName() {
    let events = ["a", "b", "a"].map { Self.event(0, .taskCreated, [("task", .string($0))]) }
    #expect(
      TaskAccounts.wastedByName(events, inCreationOrder: [1, 2, Int64.max]) == ["a": Int64.max, "b": 2])
    #expect(TaskAccounts.wastedByName(events, inCreationOrder: [5]) == ["a": 5])
  }

  @Test("slowest first, ties in creation order")
  func order() {
    let events = [
      Self.event(0, .taskCreated, [("task", "x")]), Self.event(0, .taskCreated, [("task", "y")]),
      Self.event(0, .taskCreated, [("task", "z")]), Self.event(3, .taskCancelled, [("task", "x")]),
      Self.event(3, .delegateDidComplete, [("task", "x")]), Self.event(1, .taskCancelled, [("task", "z")]),
      Self.event(9, .delegateDidComplete, [("task", "z")]),
    ]
    let accounts = TaskAccounts.compute(events, endTime: Self.at(9))
    #expect(TaskAccounts.slowestFirst(accounts).map(\.task) == ["y", "z", "x"])
  }

  @Test("every shipped scenario: accounts cover each task from creation without gaps; wasted bytes add up")
  func library() throws {
    for file in ScenarioLibraryTests.files {
      let path = ScenarioLibraryTests.directory.appendingPathComponent(file).path
      let result = ScenarioRunner.run(try ScenarioLoader.load(path: path))
      let accounts = TaskAccounts.compute(result)
      let created = result.trace.events.filter { $0.is(.taskCreated) }.count
      #expect(accounts.count == created, "\(file)")
      for account in accounts {
        #expect(account.intervals.first?.start == account.created, "\(file) \(account.task)")
        for (before, after) in zip(account.intervals, account.intervals.dropFirst()) {
          #expect(before.end == after.start && before.closing == after.opening, "\(file) \(account.task)")
        }
        #expect(account.breakdown.map(\.time).reduce(.zero, +) == account.total, "\(file) \(account.task)")
        if account.outcome == .unfinished { #expect(account.intervals.last?.end == result.endTime) }
      }
      #expect(accounts.reduce(0) { $0 + $1.bytesWasted } == result.bytesWasted, "\(file)")
    }
  }

  @Test("a real run: a download that lost Wi-Fi waits out the backoff, then for connectivity")
  func wifiLost() throws {
    let path = ScenarioLibraryTests.directory.appendingPathComponent("wifi-lost-mid-download.json").path
    let result = ScenarioRunner.run(try ScenarioLoader.load(path: path))
    let bg = try #require(TaskAccounts.compute(result).first { $0.task == "bg" })
    #expect(bg.time(in: .backoff) == .seconds(10))
    #expect(bg.time(in: .waiting(.connectivity)) == .seconds(590))
    #expect(bg.delivered == bg.ended)
  }
}

/// The wait for the app's answer to an authentication challenge is its own interval in every
/// account (issue 27, item 7): before, `run`, `explain`, the report and the sweep called it
/// transferring although no byte moved.
@Suite struct ChallengeAccountTests {
  @Test("task.challenged opens a challenge wait; the answer returns the task to transferring")
  func challengeWait() throws {
    let e = TaskAccountTests.event
    let events = [
      e(0, .taskCreated, [("task", "a"), ("session", "S")]),
      e(0, .taskResume, [("task", "a"), ("session", "S")]),
      e(1, .taskStarted, [("task", "a")]),
      e(3, .taskChallenged, [("task", "a"), ("method", "basic")]),
      e(32, .taskChallengeAnswered, [("task", "a"), ("disposition", "useCredential")]),
      e(36, .taskFinished, [("task", "a"), ("bytes", 5)]),
      e(36, .delegateDidComplete, [("task", "a"), ("error", "none")]),
    ]
    let a = try #require(TaskAccounts.compute(events, endTime: TaskAccountTests.at(40)).first)
    #expect(a.time(in: .waitingForChallengeAnswer) == .seconds(29))
    #expect(a.time(in: .transferring) == .seconds(6))
    #expect(a.intervals.first { $0.activity == .waitingForChallengeAnswer }?.detail == "basic")
    #expect(TaskAccount.Activity.waitingForChallengeAnswer.label == "waiting: app's challenge answer")
  }

  /// The shipped background challenge with launch events off: the challenge at 2m0.06s waits
  /// for the user's launch at 2m30s.
  static func waitingForLaunch() throws -> RunResult {
    let path = ScenarioLibraryTests.directory.appendingPathComponent(
      "authentication-challenge-background.json"
    ).path
    var text = try String(contentsOfFile: path, encoding: .utf8)
    text = text.replacingOccurrences(
      of: #"{"identifier": "Premium", "kind": "background"}"#,
      with: #"{"identifier": "Premium", "kind": "background", "sendsLaunchEvents": false}"#)
    text = text.replacingOccurrences(
      of: #"{"at": "10s", "do": "background"}"#,
      with: #"{"at": "10s", "do": "background"}, {"at": "2m30s", "do": "launch"}"#)
    return ScenarioRunner.run(try ScenarioLoader.load(data: Array(text.utf8), file: "c.json"))
  }

  @Test(
    "a challenge that waits for the app is accounted as that wait, each interval opened by task.challenged")
  func waitInARun() throws {
    let result = try Self.waitingForLaunch()
    let accounts = TaskAccounts.compute(result)
    let waited = accounts.map { $0.time(in: .waitingForChallengeAnswer) }.reduce(SimDuration.zero, +)
    #expect(waited > .seconds(29) && waited < .seconds(30))
    for account in accounts {
      let challenged = account.intervals.filter { $0.activity == .waitingForChallengeAnswer }
      for interval in challenged {
        let opening = result.trace.events[interval.opening]
        #expect(opening.kind == TraceKind.taskChallenged.name)
      }
    }
  }
}
