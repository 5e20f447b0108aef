import SimKernel
import Testing

@testable import TransferEngine

/// The invariant checker alone: snapshots and records made by hand, no `Simulation`. Each row is
/// a world that keeps or breaks one invariant, and what the checker must say of it.
@Suite("InvariantChecker")
struct InvariantCheckerTests {
  static let wifi = NetworkState(interface: .wifi)
  static let offline = NetworkState.offline
  static let background = SessionConfiguration.background(withIdentifier: "S")
  static var noCellular: SessionConfiguration {
    var c = background
    c.allowsCellularAccess = false
    return c
  }

  static func task(
    uid: Int32 = 0, finished: Bool = false, active: Bool = false, moving: Bool = false, download: Bool = true,
    configuration: SessionConfiguration = background, received: Int64 = 0, sent: Int64 = 0, size: Int64 = 100,
    uploadSize: Int64 = 0, responseBody: Int64 = 0, onWire: Int64 = 0, inherited: Int64 = 0,
    wasted: Int64 = 0,
    limit: Int = 4
  ) -> TaskFacts {
    TaskFacts(
      uid: uid, name: "t\(uid)", isDownload: download, fetchesBody: download, isFinished: finished,
      isActive: active,
      movesBytes: moving,
      connectionKey: active ? queueKey : nil, connectionLimit: limit, configuration: configuration,
      received: received,
      sent: sent, fetchingSize: size, uploadSize: uploadSize, responseBody: responseBody, bytesOnWire: onWire,
      inheritedBytes: inherited, bytesWasted: wasted, sessionIdentifier: "S")
  }

  /// The one queue of these worlds, named "S example.com".
  static let queueKey = WaitQueue.Key(index: 0)

  static func snapshot(
    at now: SimTime = SimTime(.seconds(1)), network: NetworkState = wifi, flows: (Int, Int) = (0, 0),
    tasks: [TaskFacts], running: Int? = nil
  ) -> EngineSnapshot<[TaskFacts]> {
    let holding = tasks.filter(\.isActive).count
    return EngineSnapshot(
      now: now, network: network, activeFlows: (down: flows.0, up: flows.1), tasks: tasks,
      queues: [QueueCount(key: queueKey, running: running ?? holding)], queueNames: ["S example.com"])
  }

  /// (what the row shows, the world after the event, endings recorded per uid, what must be found)
  static var afterEventRows: [(String, EngineSnapshot<[TaskFacts]>, [Int32], Invariant?)] {
    [
      ("a consistent world", snapshot(tasks: [task(active: true, moving: true)]), [], nil),
      ("a finished task ended once", snapshot(tasks: [task(finished: true)]), [0], nil),
      ("a task ended twice", snapshot(tasks: [task(finished: true)]), [0, 0], .taskCompletesOnce),
      ("a finished task that never ended", snapshot(tasks: [task(finished: true)]), [], .taskCompletesOnce),
      (
        "bytes on the link while offline", snapshot(network: offline, flows: (1, 0), tasks: []), [],
        .noBytesWhileOffline
      ),
      (
        "a task moving bytes while offline",
        snapshot(network: offline, tasks: [task(active: true, moving: true)]), [],
        .noBytesWhileOffline
      ),
      (
        "bytes on cellular for a session that forbids it",
        snapshot(
          network: NetworkState(interface: .cellular),
          tasks: [task(active: true, moving: true, configuration: noCellular)]), [],
        .noBytesOnDisallowedInterface
      ),
      (
        "more received than the body", snapshot(tasks: [task(received: 101, size: 100)]), [], .bytesWithinSize
      ),
      (
        "an upload sending more than its body",
        snapshot(tasks: [task(download: false, sent: 11, uploadSize: 10)]), [], .bytesWithinSize
      ),
      (
        "more connections than the limit",
        snapshot(tasks: [task(uid: 0, active: true, limit: 1), task(uid: 1, active: true, limit: 1)]), [],
        .connectionLimit
      ),
      (
        "a queue counting a connection nobody holds", snapshot(tasks: [task()], running: 1), [],
        .connectionAccounting
      ),
    ]
  }

  @Test("after each event: each row keeps or breaks exactly the invariant it names")
  func afterEvent() {
    for (name, snapshot, endings, expected) in Self.afterEventRows {
      var checker = InvariantChecker()
      for uid in endings { checker.taskEnded(uid) }
      let found = checker.check(after: snapshot)
      #expect(found.first?.invariant == expected, "\(name): \(found)")
    }
  }

  /// After an event the checker reads only the tasks that may have changed: a failure in any
  /// other task would have shown at that task's last check.
  @Test("the tasks read after an event: changed rows, changed counters, movers, holders")
  func tasksToCheck() {
    var checker = InvariantChecker()
    let queue = [QueueCount(key: Self.queueKey, running: 1)]
    // The first event: every task is new (its row was added).
    #expect(checker.tasksToCheck(changedRows: [2, 0, 1, 0], network: Self.wifi, queues: queue) == [0, 1, 2])
    let tasks = [Self.task(uid: 0, active: true, moving: true), Self.task(uid: 1), Self.task(uid: 2)]
    #expect(checker.check(after: Self.snapshot(tasks: tasks)).isEmpty)
    // Nothing changed: nothing is read.
    #expect(checker.tasksToCheck(changedRows: [], network: Self.wifi, queues: queue).isEmpty)
    // A counter of task 2 changed (it ended), and task 1's row.
    checker.taskEnded(2)
    #expect(checker.tasksToCheck(changedRows: [1], network: Self.wifi, queues: queue) == [1, 2])
    // The network changed: the task moving bytes is read again, with any changed row.
    let cellular = NetworkState(interface: .cellular)
    #expect(checker.tasksToCheck(changedRows: [2], network: cellular, queues: queue) == [0, 2])
    #expect(checker.tasksToCheck(changedRows: [], network: cellular, queues: queue).isEmpty)
    // The queue's count changed: the task holding its connection is read again.
    let busier = [QueueCount(key: Self.queueKey, running: 2)]
    #expect(checker.tasksToCheck(changedRows: [], network: cellular, queues: busier) == [0])
  }

  /// Each task is filed where its last check found it, so a queue's count is compared with
  /// every task holding its connection, read at this event or before.
  @Test("connection accounting counts the holders of earlier checks too")
  func holdersOfEarlierChecks() {
    var checker = InvariantChecker()
    let both = [Self.task(uid: 0, active: true), Self.task(uid: 1, active: true)]
    #expect(checker.check(after: Self.snapshot(tasks: both, running: 2)).isEmpty)
    // Only task 1 is read: it let its connection go, and the queue counts one.
    #expect(checker.check(after: Self.snapshot(tasks: [Self.task(uid: 1)], running: 1)).isEmpty)
    // Only task 1 is read again, holding nothing, and the queue counts none: task 0 still holds one.
    let found = checker.check(after: Self.snapshot(tasks: [Self.task(uid: 1)], running: 0))
    #expect(found.map(\.invariant) == [.connectionAccounting])
    #expect(found.first?.message == "'S example.com' counts 0 connections but 1 tasks hold one")
  }

  /// After an event the checker compares only the queues whose count changed and those a task it
  /// read joined or left: any other queue compares what it compared at its last check.
  @Test("connection accounting compares the queues whose count or holders changed, by key, named in messages")
  func queuesCompared() {
    var checker = InvariantChecker()
    let names = ["S a.example", "S b.example"]
    let a = WaitQueue.Key(index: 0)
    let b = WaitQueue.Key(index: 1)
    func holding(_ uid: Int32, _ key: WaitQueue.Key?) -> TaskFacts {
      var facts = Self.task(uid: uid, active: key != nil)
      facts.connectionKey = key
      return facts
    }
    func snapshot(_ tasks: [TaskFacts], _ queues: [QueueCount]) -> EngineSnapshot<[TaskFacts]> {
      EngineSnapshot(
        now: .zero, network: Self.wifi, activeFlows: (0, 0), tasks: tasks, queues: queues, queueNames: names)
    }
    let first = snapshot(
      [holding(0, a), holding(1, b)], [QueueCount(key: a, running: 1), QueueCount(key: b, running: 1)])
    #expect(checker.check(after: first).isEmpty)
    // Queue b's count changed and no task was read: b is compared, and found wrong.
    let found = checker.check(after: snapshot([], [QueueCount(key: b, running: 2)]))
    #expect(found.map(\.message) == ["'S b.example' counts 2 connections but 1 tasks hold one"])
    // A task left queue a and no count was given: a is compared (its holder left), and counts one.
    var left = InvariantChecker()
    #expect(left.check(after: first).isEmpty)
    let leaving = left.check(after: snapshot([holding(0, nil)], []))
    #expect(leaving.map(\.message) == ["'S a.example' counts 1 connections but 0 tasks hold one"])
    // The count alone moving with its holder is consistent.
    var moved = InvariantChecker()
    #expect(moved.check(after: first).isEmpty)
    #expect(moved.check(after: snapshot([holding(0, nil)], [QueueCount(key: a, running: 0)])).isEmpty)
    // Over the limit: the message names the queue.
    var crowded = InvariantChecker()
    var limited = holding(0, b)
    limited.connectionLimit = 1
    let over = crowded.check(after: snapshot([limited], [QueueCount(key: b, running: 2)]))
    #expect(over.first?.message == "2 connections to 'S b.example', the limit is 1")
    // A task holding a connection whose pair has no queue.
    var orphan = InvariantChecker()
    var lost = Self.task(uid: 0, active: true)
    lost.connectionKey = nil
    let withoutQueue = orphan.check(after: snapshot([lost], []))
    #expect(withoutQueue.map(\.invariant) == [.connectionAccounting])
  }

  @Test("time never goes back: the checker remembers the last event's time")
  func timeMonotonic() {
    var checker = InvariantChecker()
    #expect(checker.check(after: Self.snapshot(at: SimTime(.seconds(5)), tasks: [])).isEmpty)
    let found = checker.check(after: Self.snapshot(at: SimTime(.seconds(4)), tasks: []))
    #expect(found.map(\.invariant) == [.timeMonotonic])
  }

  @Test("deliveries: didComplete and didFinishDownloading at most once per task")
  func deliveries() {
    var checker = InvariantChecker()
    checker.deliveredCompletion(0)
    #expect(checker.check(after: Self.snapshot(tasks: [Self.task()])).isEmpty)
    checker.deliveredCompletion(0)
    #expect(checker.check(after: Self.snapshot(tasks: [Self.task()])).first?.invariant == .didCompleteOnce)
    var downloads = InvariantChecker()
    downloads.deliveredDownload(0)
    downloads.deliveredDownload(0)
    #expect(
      downloads.check(after: Self.snapshot(tasks: [Self.task()])).first?.invariant == .downloadDeliveredOnce)
  }

  static func start(
    firstStart: Bool = true, configuration: SessionConfiguration = background, earliestBegin: SimTime? = nil,
    createdInBackground: Bool = false, discretionary: Bool = false, network: NetworkState = wifi,
    power: PowerState = PowerState(charging: true), rateLimiterExpiry: SimTime = .zero,
    awaitsDelayedAnswer: Bool = false, size: Int64 = 50_000_000,
    policy: DiscretionaryPolicy = DiscretionaryPolicy()
  ) -> StartFacts {
    StartFacts(
      task: "t",
      request: Admission.Request(
        configuration: configuration, firstStart: firstStart, earliestBeginDate: earliestBegin,
        createdInBackground: createdInBackground, isDiscretionary: discretionary, transferSize: size,
        running: 0, connectionLimit: 4, awaitsDelayedAnswer: awaitsDelayedAnswer),
      conditions: Admission.Conditions(
        now: SimTime(.minutes(1)), network: network, power: power, appState: .background,
        rateLimiterExpiry: rateLimiterExpiry, discretionary: policy))
  }

  static var startRows: [(String, StartFacts, Invariant?)] {
    [
      ("an allowed start", start(), nil),
      ("a start while offline", start(network: offline), .startOnAllowedInterface),
      ("a retry while offline", start(firstStart: false, network: offline), .startOnAllowedInterface),
      ("a start before the start date", start(earliestBegin: SimTime(.hours(1))), .startAfterEarliestBegin),
      (
        "a start before the app answered willBeginDelayedRequest",
        start(earliestBegin: .zero, awaitsDelayedAnswer: true), .startAfterDelayedRequestAnswer
      ),
      (
        "a background-created start before the limiter's expiry",
        start(createdInBackground: true, rateLimiterExpiry: SimTime(.hours(1))), .startAfterRateLimiter
      ),
      (
        "a retry before the limiter's expiry is not its business",
        start(firstStart: false, createdInBackground: true, rateLimiterExpiry: SimTime(.hours(1))), nil
      ),
      (
        "a large discretionary start on battery", start(discretionary: true, power: PowerState()),
        .startOnlyWhenDiscretionary
      ),
      (
        "a small discretionary start on battery", start(discretionary: true, power: PowerState(), size: 1),
        nil
      ),
      (
        "a small discretionary start on battery below the minimum level",
        start(
          discretionary: true, power: PowerState(battery: 0.1), size: 1,
          policy: DiscretionaryPolicy(minimumBatteryLevel: 0.5)),
        .startOnlyWhenDiscretionary
      ),
    ]
  }

  @Test("at a start: each start rule of behavior.md")
  func starts() {
    let checker = InvariantChecker()
    for (name, facts, expected) in Self.startRows {
      #expect(checker.checkStart(facts).first?.invariant == expected, "\(name)")
    }
  }

  @Test("trace records: delegate calls only while running; no background launch after a force quit")
  func records() {
    let checker = InvariantChecker()
    let suspended = RecordContext(appState: .suspended, forceQuit: false, backgroundAppRefresh: true)
    let forceQuit = RecordContext(appState: .background, forceQuit: true, backgroundAppRefresh: true)
    let noRefresh = RecordContext(appState: .background, forceQuit: false, backgroundAppRefresh: false)
    let running = RecordContext(appState: .background, forceQuit: false, backgroundAppRefresh: true)
    let background = [TraceField("reason", .string("background"))]
    #expect(
      checker.observe("delegate.didComplete", [], in: suspended).first?.invariant == .delegateOnlyWhileRunning
    )
    #expect(checker.observe("delegate.didComplete", [], in: running).isEmpty)
    #expect(checker.observe("app.launch", background, in: forceQuit).first?.invariant == .noBackgroundLaunch)
    #expect(checker.observe("app.resume", background, in: noRefresh).first?.invariant == .noBackgroundLaunch)
    #expect(checker.observe("app.launch", [TraceField("reason", .string("user"))], in: forceQuit).isEmpty)
  }

  @Test("a completion handler called twice")
  func completionHandler() {
    let checker = InvariantChecker()
    #expect(checker.completionHandlerCalled(session: "S", wake: 1, calls: 1).isEmpty)
    #expect(
      checker.completionHandlerCalled(session: "S", wake: 1, calls: 2).first?.invariant
        == .completionHandlerOnce)
  }

  @Test("at the end: bytes add up, and a finished download was delivered, queued or linted lost")
  func final() {
    var checker = InvariantChecker()
    checker.taskEnded(0)
    checker.taskFinished(0)
    let done = Self.task(finished: true, received: 100, onWire: 150, wasted: 50)
    #expect(checker.checkFinal(tasks: [done], queuedDownloads: [0], lintedSessions: []).isEmpty)
    #expect(checker.checkFinal(tasks: [done], queuedDownloads: [], lintedSessions: [WrittenKey("S")]).isEmpty)
    #expect(
      checker.checkFinal(tasks: [done], queuedDownloads: [], lintedSessions: []).first?.invariant
        == .downloadDeliveredOnce)
    checker.deliveredDownload(0)
    #expect(checker.checkFinal(tasks: [done], queuedDownloads: [], lintedSessions: []).isEmpty)
    let leaky = Self.task(finished: true, received: 100, onWire: 149, wasted: 50)
    #expect(
      checker.checkFinal(tasks: [leaky], queuedDownloads: [], lintedSessions: []).first?.invariant
        == .bytesConserved)
    let upload = Self.task(finished: true, download: false, received: 5, sent: 10, onWire: 14)
    #expect(
      checker.checkFinal(tasks: [upload], queuedDownloads: [], lintedSessions: []).first?.invariant
        == .bytesConserved)
  }
}
