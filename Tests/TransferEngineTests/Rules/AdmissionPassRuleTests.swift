import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// The admission pass alone: (queues, device, input) -> (queues after, effects), on an `Engine`
/// with session records and tasks but no `Simulation`.
@Suite("Rule: admission pass")
struct AdmissionPassRuleTests {
  static let url = SimURL("https://cdn.example/f.bin")!

  /// An engine on Wi-Fi (or offline) whose policy allows `limit` connections per host.
  static func engine(limit: Int = 2, online: Bool = true) -> Engine {
    let engine = Engine(
      policy: Policy(maxConnectionsPerHost: limit), device: DeviceModel(), server: ServerModel())
    if online { _ = engine.links.apply(NetworkState(interface: .wifi), now: .zero) }
    return engine
  }

  /// `count` resumed downloads in a new session with `configuration`.
  static func tasks(
    _ count: Int, in configuration: SessionConfiguration, engine: Engine
  ) -> [SimURLSessionTask] {
    // A background identifier already made names the same record, as `MakeSessionRule` finds it.
    let existing =
      configuration.kind == .background ? engine.daemon.backgroundSession(configuration.identifier) : nil
    let record = existing ?? engine.daemon.addSession(configuration, simulation: nil)
    return (0..<count).map { _ in
      let task = SimURLSessionTask(
        in: engine.tasks, taskIdentifier: record.nextIdentifier(), kind: .download, url: url,
        session: record, name: nil, createdInBackground: false, resumeFrom: nil)
      engine.daemon.addTask(task)
      record.add(task)
      _ = engine.tasks[task].machine.resume()
      return task
    }
  }

  /// Carries out the effects a test interpreter must for the next input to see the engine as the
  /// simulation would: an admitted task starts; the rest are only recorded.
  static func admit(_ effects: [Effect], engine: Engine) {
    for case .beginAttempt(let uid) in effects {
      let task = engine.daemon.tasks[Int(uid)]
      _ = engine.tasks[task].machine.admit(at: engine.now)
      engine.tasks[task].record.admitted()
    }
  }

  static func deferred(_ task: SimURLSessionTask, _ reason: String, _ extra: [TraceField] = []) -> Effect {
    .trace(
      .taskDeferred,
      [
        TraceField("task", .string(task.name)), TraceField("session", .string(task.session.identifier)),
        TraceField("reason", .string(reason)),
      ] + extra)
  }

  @Test(
    "tasks queued one by one start up to the connection limit; the next waits, traced once; a freed slot starts it"
  )
  func connectionLimit() {
    let engine = Self.engine(limit: 2)
    let t = Self.tasks(3, in: .background(withIdentifier: "bg"), engine: engine)
    let key = engine.daemon.ensureQueue(for: t[0])
    var outcomes: [[Effect]] = []
    for task in t {
      var effects = EffectBuffer()
      AdmissionPassRule.enqueue(task, engine: engine, into: &effects)
      Self.admit(effects.effects, engine: engine)
      outcomes.append(effects.effects)
      // After the pass, a task it started is no longer waiting: nothing more to say about it.
      var explained = EffectBuffer()
      AdmissionPassRule.explainWait(task, key: key, engine: engine, into: &explained)
      #expect(explained.isEmpty)
    }
    #expect(
      outcomes == [
        [.beginAttempt(uid: 0), .explainWait(uid: 0, key: key)],
        [.beginAttempt(uid: 1), .explainWait(uid: 1, key: key)],
        [Self.deferred(t[2], "connectionLimit"), .explainWait(uid: 2, key: key)],
      ])
    #expect(engine.daemon.running(key) == 2)
    // A slot freed by a batch admits nothing; a slot freed alone starts the waiting task.
    var effects = EffectBuffer()
    AdmissionPassRule.releaseConnection(of: t[0], admitting: false, engine: engine, into: &effects)
    #expect(effects.isEmpty)
    #expect(engine.daemon.running(key) == 1)
    AdmissionPassRule.releaseConnection(of: t[1], admitting: true, engine: engine, into: &effects)
    #expect(effects.effects == [.beginAttempt(uid: 2)])
    #expect(engine.daemon.running(key) == 1)
    #expect(!engine.daemon.hasWaiting(key))
  }

  /// A (session, host) queue belongs to a session record, not to an identifier: two default
  /// sessions (the bridge names each "default") have their own connections to a host, as each
  /// `URLSession` has on a device; background identifiers are told apart by their bytes.
  @Test("each session has its own queue per host, whatever its identifier says to String")
  func queuesBySessionRecord() {
    let engine = Self.engine(limit: 1)
    let first = Self.tasks(1, in: .default(), engine: engine)[0]
    let second = Self.tasks(1, in: .default(), engine: engine)[0]
    let composed = Self.tasks(1, in: .background(withIdentifier: "\u{E9}"), engine: engine)[0]
    let decomposed = Self.tasks(1, in: .background(withIdentifier: "e\u{301}"), engine: engine)[0]
    #expect(first.session !== second.session && composed.session !== decomposed.session)
    var started: [Int32] = []
    for task in [first, second, composed, decomposed] {
      var effects = EffectBuffer()
      AdmissionPassRule.enqueue(task, engine: engine, into: &effects)
      Self.admit(effects.effects, engine: engine)
      for case .beginAttempt(let uid) in effects.effects { started.append(uid) }
    }
    // One connection per host each, so all four start.
    #expect(started == [first.uid, second.uid, composed.uid, decomposed.uid])
    let keys = [first, second, composed, decomposed].compactMap { engine.daemon.queueKey($0) }
    #expect(Set(keys.map(\.index)).count == 4)
    #expect(engine.daemon.queueName(keys[0]) == "default cdn.example")
  }

  /// While invariants are checked the daemon notes each queue it makes and each whose count
  /// changes, so the checker compares those queues only (`Daemon.changedQueues`).
  @Test("the daemon notes the queues made and those whose connection count changed, nothing else")
  func queueChangesNoted() {
    let engine = Self.engine(limit: 1)
    let t = Self.tasks(2, in: .background(withIdentifier: "bg"), engine: engine)
    let other = Self.tasks(1, in: .background(withIdentifier: "other"), engine: engine)[0]
    let key = engine.daemon.ensureQueue(for: t[0])
    // Not noting: nothing is kept.
    #expect(engine.daemon.changedQueues.noted.isEmpty)
    // Noting starts with every queue so far.
    engine.daemon.noteQueueChanges(true)
    #expect(engine.daemon.takeChangedQueues() == [key.index])
    func enqueue(_ task: SimURLSessionTask) {
      var effects = EffectBuffer()
      AdmissionPassRule.enqueue(task, engine: engine, into: &effects)
      Self.admit(effects.effects, engine: engine)
    }
    func release(_ task: SimURLSessionTask) {
      var effects = EffectBuffer()
      AdmissionPassRule.releaseConnection(of: task, admitting: true, engine: engine, into: &effects)
      Self.admit(effects.effects, engine: engine)
    }
    enqueue(t[0])
    // The pass opened a connection.
    #expect(engine.daemon.takeChangedQueues() == [key.index])
    enqueue(t[1])
    // The second task waits for the limit: the count did not change.
    #expect(engine.daemon.takeChangedQueues().isEmpty)
    enqueue(other)
    let otherKey = engine.daemon.ensureQueue(for: other)
    // A new queue, and its count changed.
    #expect(engine.daemon.takeChangedQueues() == [otherKey.index, otherKey.index])
    // A freed slot taken at once by the waiting task: noted at the close, and again at the
    // pass that opened the slot for it.
    release(t[0])
    #expect(engine.daemon.takeChangedQueues() == [key.index, key.index])
    engine.daemon.noteQueueChanges(false)
    release(other)
    #expect(engine.daemon.changedQueues.noted.isEmpty)
  }

  @Test(
    "offline: a default session's first start fails with -1009 unless it waits for connectivity, then its delegate is told"
  )
  func offlineDefaultSession() {
    let engine = Self.engine(online: false)
    let failing = Self.tasks(1, in: .default(identifier: "plain"), engine: engine)[0]
    var waitingConfiguration = SessionConfiguration.default(identifier: "patient")
    waitingConfiguration.waitsForConnectivity = true
    let patient = Self.tasks(1, in: waitingConfiguration, engine: engine)[0]
    var effects = EffectBuffer()
    AdmissionPassRule.enqueue(failing, engine: engine, into: &effects)
    guard case .failNotConnected(let uid, let reason) = effects.effects.first else {
      Issue.record("no failure: \(effects.effects)")
      return
    }
    // Offline: no interface is up, so no interface is to blame.
    #expect(uid == failing.uid && reason == nil)
    #expect(
      effects.effects.dropFirst() == [
        .explainWait(uid: failing.uid, key: engine.daemon.ensureQueue(for: failing))
      ])
    effects.removeAll()
    AdmissionPassRule.enqueue(patient, engine: engine, into: &effects)
    #expect(effects.effects.first == .notifyWaitingForConnectivity(uid: patient.uid))
    #expect(effects.effects.count == 3)
    // Decided again with nothing changed: no second notice, no second trace.
    effects.removeAll()
    AdmissionPassRule.apply(
      key: engine.daemon.ensureQueue(for: patient), full: true, engine: engine, into: &effects)
    #expect(effects.isEmpty)
  }

  @Test(
    "a start date in the future: traced with its end, a re-evaluation asked for then, and again on every pass"
  )
  func earliestBegin() {
    let engine = Self.engine()
    let task = Self.tasks(1, in: .background(withIdentifier: "bg"), engine: engine)[0]
    let begin = SimTime(.minutes(5))
    task.earliestBeginDate = begin
    let key = engine.daemon.ensureQueue(for: task)
    var effects = EffectBuffer()
    AdmissionPassRule.enqueue(task, engine: engine, into: &effects)
    #expect(
      effects.effects == [
        Self.deferred(task, "earliestBegin", [TraceField("until", .duration(begin.sinceStart))]),
        .requestReevaluation(at: begin), .explainWait(uid: task.uid, key: key),
      ])
    effects.removeAll()
    AdmissionPassRule.apply(key: key, full: true, engine: engine, into: &effects)
    #expect(effects.effects == [.requestReevaluation(at: begin)])
  }

  @Test(
    "re-deciding every waiting task runs the full pass of each queue there is, in the order the queues were made"
  )
  func reevaluateAll() {
    let engine = Self.engine()
    var effects = EffectBuffer()
    AdmissionPassRule.reevaluateAll(engine: engine, into: &effects)
    #expect(effects.effects == [])
    let second = Self.tasks(1, in: .background(withIdentifier: "b"), engine: engine)[0]
    let first = Self.tasks(1, in: .background(withIdentifier: "a"), engine: engine)[0]
    #expect(engine.daemon.insert(second) == WaitQueue.Key(index: 0))
    #expect(engine.daemon.insert(first) == WaitQueue.Key(index: 1))
    AdmissionPassRule.reevaluateAll(engine: engine, into: &effects)
    #expect(effects.effects == [.fullAdmissionPasses(queues: 2)])
  }
}
