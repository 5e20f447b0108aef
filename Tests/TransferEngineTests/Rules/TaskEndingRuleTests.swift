import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// The rooms that end a task (finish, fail, cancel, lose) alone: (app, task, input) -> (effects,
/// delegate events queued, session and queue after), on an `Engine` built without a `Simulation`.
@Suite("Rules: a task finishes, fails, is cancelled or is lost")
struct TaskEndingRuleTests {
  /// An engine on Wi-Fi whose policy allows one connection per host, with the app `running` (in
  /// the foreground) or not launched.
  static func fixture(running: Bool) -> EngineFixture {
    let fixture = EngineFixture(policy: Policy(maxConnectionsPerHost: 1))
    _ = fixture.engine.links.apply(NetworkState(interface: .wifi), now: .zero)
    if running { _ = fixture.engine.lifecycle.userLaunch() }
    return fixture
  }

  /// Tasks "f" and "g" of session "bg", both resumed on a host with one connection: "f" holds
  /// it, "g" waits behind it.
  static func twoStarted(_ kind: SimURLSessionTask.Kind)
    -> (EngineFixture, DaemonSession, SimURLSessionTask, SimURLSessionTask)
  {
    let fixture = Self.fixture(running: false)
    let record = fixture.session("bg")
    let first = fixture.task("f", kind, in: record)
    let second = fixture.task("g", kind, in: record)
    Self.start(first, engine: fixture.engine)
    Self.start(second, engine: fixture.engine)
    return (fixture, record, first, second)
  }

  /// `task` resumed and queued; the admission pass gives it the connection when one is free,
  /// and then it starts and its response arrives with a `size`-byte body.
  static func start(_ task: SimURLSessionTask, size: Int64 = 1_000, engine: Engine) {
    _ = engine.tasks[task].machine.resume()
    var effects = EffectBuffer()
    AdmissionPassRule.enqueue(task, engine: engine, into: &effects)
    guard effects.effects.contains(.beginAttempt(uid: task.uid)) else { return }
    _ = engine.tasks[task].machine.admit(at: engine.now)
    engine.tasks[task].record.admitted()
    engine.tasks[task].record.responded(status: 200, head: ResponseHead())
    guard task.fetchesBody else { return }
    engine.tasks[task].bytes.downloadResponse(size: size, validator: nil, offset: 0, resumed: false)
    _ = engine.tasks[task].machine.connected(up: false)
  }

  /// `task`'s body all arrived (the link let it go).
  static func bodyArrived(_ task: SimURLSessionTask, engine: Engine) {
    engine.tasks[task].bytes.flowJoined(task.bytes.fetchingSize, up: false)
    engine.tasks[task].bytes.flowFinished()
    engine.tasks[task].bytes.responseReceived(isDownload: true)
  }

  /// The delegate events a session record holds, by name and task, in order.
  static func queued(_ record: DaemonSession) -> [String] {
    record.pending.map { event in
      switch event {
      case .didWriteData(let task, _, let total): "didWriteData \(task.name) \(total)"
      case .didFinishDownloading(let task): "didFinishDownloading \(task.name)"
      case .didReceiveData(let task, let bytes): "didReceiveData \(task.name) \(bytes)"
      case .didComplete(let task, let error): "didComplete \(task.name) \(error?.code.name ?? "none")"
      case .didBecomeInvalid(let session): "didBecomeInvalid \(session.identifier)"
      default: "other"
      }
    }
  }

  static let deliver = Effect.schedule(.deliver(sessionIndex: 0), at: .zero)
  static let wakeCheck = Effect.schedule(.wakeCheck, at: .zero)

  /// `task.failed` of task `name` of session `session` with `code`, without resume data.
  static func failed(_ name: String, session: String = "bg", _ code: SimURLError.Code) -> Effect {
    .trace(
      .taskFailed,
      [
        TraceField("task", .string(name)), TraceField("session", .string(session)),
        TraceField("error", .string(code.name)), TraceField("code", .int(Int64(code.rawValue))),
      ])
  }

  static func finished(_ name: String, bytes: Int64, status: Int64 = 200) -> Effect {
    .trace(
      .taskFinished,
      [
        TraceField("task", .string(name)), TraceField("session", .string("bg")),
        TraceField("status", .int(status)), TraceField("bytes", .int(bytes)),
      ])
  }

  // MARK: Finish

  /// (name, app running, kind, effects after the trace, events queued, session owes a wake).
  static let finishTable: [(String, Bool, SimURLSessionTask.Kind, [Effect], [String], Bool)] = [
    (
      "a download while the app is away: its events wait, a wake is owed", false, .download, [wakeCheck],
      ["didFinishDownloading f", "didComplete f none"], true
    ),
    (
      "a download while the app runs: the last progress report first, each event delivered now", true,
      .download, [deliver, deliver, deliver, wakeCheck],
      ["didWriteData f 1000", "didFinishDownloading f", "didComplete f none"], false
    ),
    (
      "a data task with a body: its data, then its completion", true, .data, [deliver, deliver, wakeCheck],
      ["didReceiveData f 1000", "didComplete f none"], false
    ),
  ]

  @Test(
    "a finished task is traced, its delegate events queued in order, a wake check asked",
    arguments: finishTable)
  func finish(
    _ name: String, _ running: Bool, _ kind: SimURLSessionTask.Kind, _ after: [Effect], _ events: [String],
    _ owes: Bool
  ) {
    let fixture = Self.fixture(running: running)
    let record = fixture.session("bg")
    let task = fixture.task("f", kind, in: record)
    Self.start(task, engine: fixture.engine)
    Self.bodyArrived(task, engine: fixture.engine)
    var effects = EffectBuffer()
    FinishTaskRule.apply(task, engine: fixture.engine, into: &effects)
    #expect(effects.effects == [Self.finished("f", bytes: 1_000)] + after, "\(name)")
    #expect(Self.queued(record) == events, "\(name)")
    #expect(task.isFinished && record.outstanding == 0)
    #expect(record.wantsWake == owes, "\(name)")
    #expect(
      fixture.engine.daemon.running(fixture.engine.daemon.ensureQueue(for: task)) == 0,
      "its connection is free")
  }

  @Test("the freed connection starts the next waiting task, before the wake check")
  func finishFreesConnection() {
    let (fixture, record, task, next) = Self.twoStarted(.download)
    #expect(next.machine.isWaiting, "one connection per host: g waits")
    Self.bodyArrived(task, engine: fixture.engine)
    var effects = EffectBuffer()
    FinishTaskRule.apply(task, engine: fixture.engine, into: &effects)
    #expect(
      effects.effects == [Self.finished("f", bytes: 1_000), .beginAttempt(uid: next.uid), Self.wakeCheck])
    #expect(record.wantsWake, "g is still to do, but the finished task is owed to the app")
  }

  @Test("with the checker on, the end and the finish are observed ahead of the trace")
  func finishObserved() {
    let fixture = Self.fixture(running: false)
    fixture.engine.observing = true
    let task = fixture.task("f", .download, in: fixture.session("bg"))
    Self.start(task, engine: fixture.engine)
    Self.bodyArrived(task, engine: fixture.engine)
    var effects = EffectBuffer()
    FinishTaskRule.apply(task, engine: fixture.engine, into: &effects)
    #expect(
      effects.effects.prefix(3) == [
        .observe(.taskEnded(uid: task.uid)), .observe(.taskFinished(uid: task.uid)),
        Self.finished("f", bytes: 1_000),
      ])
  }

  @Test("a task ended twice is an inconsistency, not a second ending")
  func endedTwice() {
    let fixture = Self.fixture(running: false)
    let task = fixture.task("f", .download, in: fixture.session("bg"))
    _ = fixture.engine.tasks[task].machine.end(.finished)
    var effects = EffectBuffer()
    fixture.engine.endTask(task, .failed, into: &effects)
    #expect(effects.effects == [.inconsistency(.taskCompletesOnce, "task 'f' completed twice")])
  }

  @Test("the last task of a session invalidated with finishTasksAndInvalidate queues the invalidation")
  func lastTaskInvalidates() {
    let fixture = Self.fixture(running: true)
    let record = fixture.session("bg")
    let task = fixture.task("f", .data, in: record)
    Self.start(task, size: 0, engine: fixture.engine)
    record.attached!.beginInvalidation(waitsForTasks: true)
    var effects = EffectBuffer()
    FinishTaskRule.apply(task, engine: fixture.engine, into: &effects)
    #expect(effects.effects == [Self.finished("f", bytes: 0), Self.deliver, Self.deliver, Self.wakeCheck])
    #expect(Self.queued(record) == ["didComplete f none", "didBecomeInvalid bg"])
  }

  // MARK: Fail

  @Test(
    "a failure is traced with its error, its completion queued; a held connection goes to the next task only when freed",
    arguments: [true, false])
  func fail(_ freeing: Bool) {
    let (fixture, record, task, next) = Self.twoStarted(.download)
    var effects = EffectBuffer()
    let error = SimURLError(.timedOut)
    FailTaskRule.apply(task, error, freeingConnection: freeing, engine: fixture.engine, into: &effects)
    let failed = Effect.trace(
      .taskFailed,
      [
        TraceField("task", .string("f")), TraceField("session", .string("bg")),
        TraceField("error", .string("timedOut")), TraceField("code", .int(-1001)),
      ])
    #expect(effects.effects == [failed] + (freeing ? [.beginAttempt(uid: next.uid)] : []) + [Self.wakeCheck])
    #expect(Self.queued(record) == ["didComplete f timedOut"])
    #expect(task.error?.code == .timedOut && task.isFinished)
  }

  @Test("a disconnected task leaves its queue and fails with -997; one that ended is left alone")
  func disconnect() {
    let (fixture, _, _, waiting) = Self.twoStarted(.data)
    let key = fixture.engine.daemon.ensureQueue(for: waiting)
    var effects = EffectBuffer()
    FailTaskRule.disconnect(waiting, engine: fixture.engine, into: &effects)
    #expect(!fixture.engine.daemon.hasWaiting(key), "it left its queue")
    #expect(effects.effects.count == 2 && effects.effects.last == Self.wakeCheck)
    effects.removeAll()
    FailTaskRule.disconnect(waiting, engine: fixture.engine, into: &effects)
    #expect(effects.isEmpty)
  }

  // MARK: Cancel

  @Test(
    "a cancelled transfer frees its connection to the next task only when admitting",
    arguments: [true, false])
  func cancel(_ admitting: Bool) {
    let (fixture, record, task, next) = Self.twoStarted(.download)
    var effects = EffectBuffer()
    let data = CancelTaskRule.apply(
      task, produceResumeData: true, reason: .userForceQuitApplication, admitting: admitting,
      engine: fixture.engine, into: &effects)
    #expect(data == nil, "the server sent no validator: nothing to resume from")
    let cancelled = Effect.trace(
      .taskCancelled,
      [
        TraceField("task", .string("f")), TraceField("session", .string("bg")),
        TraceField("error", .string("cancelled")), TraceField("code", .int(-999)),
        TraceField("reason", .string("userForceQuitApplication")),
      ])
    #expect(
      effects.effects
        == [cancelled] + (admitting ? [.beginAttempt(uid: next.uid)] : []) + [
          .rescheduleLinks, Self.wakeCheck,
        ])
    #expect(Self.queued(record) == ["didComplete f cancelled"])
    #expect(task.cancelReason == .userForceQuitApplication)
    let left = fixture.engine.daemon.running(fixture.engine.daemon.ensureQueue(for: task))
    #expect(left == (admitting ? 1 : 0))
  }

  @Test("cancelling a waiting task takes it out of its queue; a task that ended is left alone")
  func cancelWaiting() {
    let (fixture, record, _, next) = Self.twoStarted(.download)
    let key = fixture.engine.daemon.ensureQueue(for: next)
    var effects = EffectBuffer()
    CancelTaskRule.apply(
      next, produceResumeData: false, reason: nil, admitting: true, engine: fixture.engine, into: &effects)
    #expect(!fixture.engine.daemon.hasWaiting(key))
    #expect(fixture.engine.daemon.running(key) == 1, "the running task keeps its connection")
    #expect(next.isFinished && effects.effects.last == Self.wakeCheck)
    effects.removeAll()
    CancelTaskRule.apply(
      next, produceResumeData: false, reason: nil, admitting: true, engine: fixture.engine, into: &effects)
    #expect(effects.isEmpty && Self.queued(record) == ["didComplete g cancelled"])
  }

  // MARK: Lost

  @Test("a lost task is traced and ends; nothing is queued, no task starts in its slot, no wake is asked")
  func vanish() {
    let fixture = Self.fixture(running: true)
    let record = fixture.session("fg", kind: .default)
    let task = fixture.task("f", .download, in: record)
    let next = fixture.task("g", .download, in: record)
    Self.start(task, engine: fixture.engine)
    Self.start(next, engine: fixture.engine)
    var effects = EffectBuffer()
    VanishTaskRule.apply(task, reason: "appTerminated", engine: fixture.engine, into: &effects)
    #expect(
      effects.effects == [
        .trace(.taskLost, [TraceField("task", .string("f")), TraceField("reason", .string("appTerminated"))])
      ])
    #expect(task.isFinished && record.pending.isEmpty && record.outstanding == 1)
    #expect(fixture.engine.daemon.running(fixture.engine.daemon.ensureQueue(for: task)) == 0)
    #expect(next.machine.isWaiting)
    effects.removeAll()
    VanishTaskRule.apply(task, reason: "appTerminated", engine: fixture.engine, into: &effects)
    #expect(effects.isEmpty)
  }
}
