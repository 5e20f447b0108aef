import CalibrationKit
import ScenarioKit
import SimKernel
import Testing
import TransferEngine

@Suite struct MatchingTests {
  static func event(_ seconds: Int64, _ kind: String, _ fields: KeyValuePairs<String, TraceValue> = [:])
    -> TraceEvent
  {
    TraceEvent(
      time: SimTime(.seconds(seconds)), kind: kind, fields: fields.map { TraceField($0.key, $0.value) })
  }

  @Test func tasksPairBySessionAndTaskIdentifierWhenNamesDiffer() {
    let observed = ObservedEvents(log: [
      Self.event(1, "task.created", ["task": "Episodes-1", "session": "Episodes", "taskIdentifier": 1]),
      Self.event(9, "delegate.didComplete", ["task": "Episodes-1", "error": "none"]),
    ])
    let simulated = [
      Self.event(1, "task.created", ["task": "ep-1", "session": "Episodes", "taskIdentifier": 1]),
      Self.event(2, "task.started", ["task": "ep-1"]),
      Self.event(7, "delegate.didComplete", ["task": "ep-1", "error": "none"]),
    ]
    let partners = observed.match(simulated)
    #expect(partners == [SimTime(.seconds(1)), SimTime(.seconds(7))])
  }

  /// Sessions whose identifiers differ only in their Unicode form are two sessions (the system
  /// compares identifiers byte for byte): their first tasks are two tasks, each paired with its own.
  @Test func sessionsAreToldApartByTheirIdentifiersBytes() {
    let composed = TraceValue.string("\u{E9}")
    let decomposed = TraceValue.string("e\u{301}")
    let observed = ObservedEvents(log: [
      Self.event(1, "task.created", ["task": "one", "session": composed, "taskIdentifier": 1]),
      Self.event(2, "task.created", ["task": "two", "session": decomposed, "taskIdentifier": 1]),
      Self.event(5, "delegate.didComplete", ["task": "two", "error": "none"]),
      Self.event(9, "delegate.didComplete", ["task": "one", "error": "none"]),
    ])
    let simulated = [
      Self.event(1, "task.created", ["task": "a", "session": composed, "taskIdentifier": 1]),
      Self.event(2, "task.created", ["task": "b", "session": decomposed, "taskIdentifier": 1]),
      Self.event(6, "delegate.didComplete", ["task": "a", "error": "none"]),
      Self.event(8, "delegate.didComplete", ["task": "b", "error": "none"]),
    ]
    // The decomposed session's task completed first on the device and last here: each pairs
    // with its own, not with the other's by order.
    #expect(
      observed.match(simulated) == [
        SimTime(.seconds(1)), SimTime(.seconds(2)), SimTime(.seconds(8)), SimTime(.seconds(6)),
      ])
  }

  @Test func theIthEventOfAKindPairsWithTheIthAndMissingOnesAreUnmatched() {
    let observed = ObservedEvents(log: [
      Self.event(0, "app.launch", ["reason": "user"]),
      Self.event(5, "app.launch", ["reason": "background"]),
      Self.event(9, "app.launch", ["reason": "background"]),
    ])
    let partners = observed.match([
      Self.event(0, "app.launch", ["reason": "user"]), Self.event(6, "app.launch", ["reason": "background"]),
    ])
    #expect(partners == [SimTime(.seconds(0)), SimTime(.seconds(6)), nil])
  }

  @Test func daemonSideEventsAndProgressAreNotFitted() {
    let observed = ObservedEvents(log: [
      Self.event(0, "recorder.start"), Self.event(1, "task.started", ["task": "a"]),
      Self.event(2, "delegate.didWriteData", ["task": "a"]), Self.event(3, "ratelimiter.wake"),
      Self.event(4, "delegate.handleEvents", ["session": "S"]),
    ])
    #expect(observed.events.map(\.kind) == ["delegate.handleEvents"])
    #expect(observed.ignoredKinds == ["ratelimiter.wake", "task.started"])
  }

  /// Console's "Set request delay" lines, written as `ratelimiter.wake` with `delay`, are
  /// matched at the instant each delay expires.
  @Test func consoleDelaysAreMatchedAtTheirExpiry() {
    let observed = ObservedEvents(log: [
      Self.event(10, "ratelimiter.wake", ["delay": "1m", "wake": 1]),
      Self.event(80, "ratelimiter.wake", ["delay": "2m", "wake": 2]),
    ])
    #expect(observed.events.map(\.time) == [SimTime(.seconds(70)), SimTime(.seconds(200))])
    #expect(observed.labels == ["delay=1m", "delay=2m"])
    let partners = observed.match([
      TraceEvent(
        time: SimTime(.seconds(10)), kind: "ratelimiter.wake",
        fields: [TraceField("delay", .duration(.seconds(50)))]),
      TraceEvent(
        time: SimTime(.seconds(80)), kind: "ratelimiter.wake",
        fields: [TraceField("delay", .duration(.seconds(100)))]),
    ])
    #expect(partners == [SimTime(.seconds(60)), SimTime(.seconds(180))])
  }

  @Test func aLogTheWorldCannotProduceMatchesNoCandidate() throws {
    var log = try CalibrationWorlds.observedLog(CalibrationWorlds.oneEpisodePerWake(episodes: 3))
    // A fourth episode the world's app never downloads.
    log.append(
      Self.event(900_000, "delegate.didComplete", ["task": "ep-4", "error": "none", "status": 200]))
    let world = try CalibrationWorlds.load(CalibrationWorlds.oneEpisodePerWake(episodes: 3))
    let result = try Calibration.run(
      CalibrationRequest(
        world: world, log: log, knobs: [try CalibrationWorlds.knob("rateLimiter.growth=1.5..3", world)],
        seeds: [3], jobs: 2))
    #expect(!result.matchesLog)
    #expect(result.score.unmatched == 1)
    #expect(result.knobs.isEmpty)
    #expect(CalibrationReport.text(result).contains("no candidate matches the log"))
  }

  @Test func aSearchGridOverTheSweepLimitIsRefusedBeforeAnyRun() throws {
    let log = try CalibrationWorlds.observedLog(CalibrationWorlds.oneEpisodePerWake(episodes: 3))
    let world = try CalibrationWorlds.load(CalibrationWorlds.oneEpisodePerWake(episodes: 3))
    let knob = try CalibrationWorlds.knob("rateLimiter.growth=1.5..3", world)
    // 3 knobs make a coarse grid of 7^3 = 343 points; 3,000 seeds take it past 1,000,000 runs.
    #expect(throws: CalibrationError.self) {
      try Calibration.run(
        CalibrationRequest(
          world: world, log: log, knobs: [knob, knob, knob], seeds: Array(1...3_000), jobs: 1))
    }
  }
}

@Suite struct ObservableTraceTests {
  /// Every field the projection keeps is one the engine writes for that kind (or the
  /// announced `taskKind`), so a renamed field cannot silently drop out of calibration.
  @Test func theProjectionSpeaksTheEnginesVocabulary() {
    for (kind, fields) in ObservableTrace.fields {
      for field in fields where field != "taskKind" {
        #expect(kind.fieldNames.contains(field), "\(kind.name) has no field \(field)")
      }
    }
    #expect(!ObservableTrace.isObservable("task.started"))
    #expect(!ObservableTrace.isObservable("ratelimiter.wake"))
    #expect(ObservableTrace.isObservable("delegate.didComplete"))
  }
}
