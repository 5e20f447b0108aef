import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// Delegate delivery and progress reports alone: (app, session, task, input) -> effects, on an
/// `Engine` built without a running `Simulation`. A session object needs an owner to be made:
/// a throwaway `Simulation` that the rules never reach.
@Suite("Rules: delegate delivery and progress")
struct DeliveryRuleTests {
  /// An engine with one background session record, `attached` to an app session object, and the
  /// app `running` (launched by the user) or not. The object is returned to keep it alive.
  static func setUp(running: Bool, attached: Bool) -> (Engine, DaemonSession, SimURLSession?) {
    let engine = Engine(policy: .defaults, device: .wifi, server: .init())
    let record = engine.daemon.addSession(.background(withIdentifier: "bg"), simulation: nil)
    var object: SimURLSession?
    if attached {
      let session = SimURLSession(
        configuration: record.configuration, delegate: nil, record: record, simulation: Simulation())
      record.attach(session)
      object = session
    }
    if running { _ = engine.lifecycle.userLaunch() }
    // The device's network from the start, as a run applies it: the links get their rates.
    _ = engine.links.apply(DeviceModel.wifi.network[0].value, now: .zero)
    return (engine, record, object)
  }

  static let deliverNow = Effect.callApp(.deliverPending(sessionIndex: 0))

  /// (name, app running, session attached, app busy for, effects).
  static let deliverTable: [(String, Bool, Bool, SimDuration?, [Effect])] = [
    ("the app is not running", false, true, nil, []),
    ("no session object to deliver to", true, false, nil, []),
    ("the app can take them", true, true, nil, [deliverNow]),
    (
      "the app is in a slow callback: tried again when it is free", true, true, .seconds(3),
      [.schedule(.deliver(sessionIndex: 0), at: SimTime(.seconds(3)))]
    ),
  ]

  @Test("queued events go to the app only when it can take them", arguments: deliverTable)
  func deliver(_ name: String, _ running: Bool, _ attached: Bool, _ busy: SimDuration?, _ expected: [Effect])
  {
    let (engine, record, object) = Self.setUp(running: running, attached: attached)
    if let busy { _ = engine.appBusy.spend(busy, now: .zero) }
    var effects = EffectBuffer()
    DeliverRule.apply(sessionIndex: record.index, engine: engine, into: &effects)
    #expect(effects.effects == expected, "\(name)")
    withExtendedLifetime(object) {}
  }

  @Test("a handler that came back early holds the rest of the wake's events")
  func heldByEarlyHandler() {
    let (engine, record, object) = Self.setUp(running: true, attached: true)
    let wake = engine.wakes.begin(sessions: ["bg"])
    var effects = EffectBuffer()
    DeliverRule.apply(sessionIndex: record.index, engine: engine, into: &effects)
    #expect(effects.effects == [Self.deliverNow])
    _ = engine.wakes.handlerCalled(session: "bg", wake: wake, appInBackground: true)
    effects.removeAll()
    DeliverRule.apply(sessionIndex: record.index, engine: engine, into: &effects)
    #expect(effects.isEmpty)
    withExtendedLifetime(object) {}
  }

  @Test("didFinishEvents is owed once, during a wake, when the session has nothing left")
  func eventsDone() {
    let (engine, record, object) = Self.setUp(running: true, attached: true)
    var effects = EffectBuffer()
    // No wake: delivering everything owes nothing.
    #expect(!DeliverRule.eventsDone(record, engine: engine, into: &effects))
    _ = engine.wakes.begin(sessions: ["bg"])
    // Something still queued: not yet.
    record.queue(.didBecomeInvalid(object!))
    #expect(!DeliverRule.eventsDone(record, engine: engine, into: &effects))
    #expect(effects.isEmpty)
    _ = record.takePending()
    #expect(DeliverRule.eventsDone(record, engine: engine, into: &effects))
    #expect(
      effects.effects == [.trace(.delegateDidFinishEvents, [TraceField("session", .string("bg"))])])
    // Once per wake.
    #expect(!DeliverRule.eventsDone(record, engine: engine, into: &effects))
    #expect(effects.effects.count == 1)
  }

  /// A download of 1,000 bytes on the link from time 0, its body's first response in.
  static func download(_ engine: Engine, _ record: DaemonSession) -> SimURLSessionTask {
    let task = SimURLSessionTask(
      uid: engine.daemon.nextUID, taskIdentifier: record.nextIdentifier(), kind: .download,
      url: SimURL("https://a.example/f")!, session: record, name: "f", createdInBackground: false,
      resumeFrom: nil)
    record.add(task)
    engine.daemon.addTask(task)
    _ = task.machine.resume()
    _ = task.machine.admit(at: .zero)
    _ = task.machine.connected(up: false)
    task.bytes.downloadResponse(size: 1_000, validator: nil, offset: 0, resumed: false)
    engine.links.add(task.uid, up: false, bytes: 1_000, now: .zero)
    task.bytes.flowJoined(1_000, up: false)
    return task
  }

  /// Moves the engine's clock to `time`.
  static func advance(_ engine: Engine, to time: SimTime) { engine.scheduler.advance(to: time) }

  @Test("a tenth crossed is reported, traced for a download, and the next check armed after the call")
  func progressReport() {
    let (engine, record, object) = Self.setUp(running: true, attached: true)
    let task = Self.download(engine, record)
    // Nothing moved yet: no report, the check is armed for the first tenth at today's rate.
    var effects = EffectBuffer()
    ProgressRule.apply(task, engine: engine, into: &effects)
    let firstTenth = SimDuration.seconds(rounding: 100 / engine.links.downShare)
    #expect(
      effects.effects == [
        .armProgressCheck(uid: 0, generation: task.machine.generation, at: SimTime.zero + firstTenth)
      ])
    // At a quarter of the body: two tenths crossed, one report for the second, then the re-arm.
    Self.advance(engine, to: SimTime.zero + SimDuration.seconds(rounding: 250 / engine.links.downShare))
    effects.removeAll()
    ProgressRule.apply(task, engine: engine, into: &effects)
    let done = task.countOfBytesReceived
    #expect(
      effects.effects == [
        .trace(
          .delegateDidWriteData,
          [
            TraceField("task", .string("f")), TraceField("totalBytesWritten", .int(done)),
            TraceField("totalBytesExpectedToWrite", .int(1_000)),
          ]),
        .callApp(.progress(uid: 0, up: false, step: done, done: done, size: 1_000)), .armProgress(uid: 0),
      ])
    #expect(task.bytes.reportedDecile == 2)
    // Within the second after a report: none, only the check re-armed.
    effects.removeAll()
    ProgressRule.apply(task, engine: engine, into: &effects)
    #expect(effects.effects.count == 1)
    if case .armProgressCheck = effects.effects.first {} else { Issue.record("expected a re-armed check") }
    withExtendedLifetime(object) {}
  }

  @Test("no progress while the app is away, and none for a task off the link")
  func progressNotHeard() {
    let (engine, record, object) = Self.setUp(running: false, attached: true)
    let task = Self.download(engine, record)
    Self.advance(engine, to: SimTime(.seconds(1)))
    var effects = EffectBuffer()
    ProgressRule.apply(task, engine: engine, into: &effects)
    #expect(effects.isEmpty)
    #expect(task.bytes.reportedDecile == 0)
    _ = task.machine.end(.cancelled)
    ProgressRule.apply(task, engine: engine, into: &effects)
    #expect(effects.isEmpty)
    withExtendedLifetime(object) {}
  }

  @Test("a finished body's 100% report is queued ahead of the download's other calls")
  func bodyDone() {
    let (engine, record, object) = Self.setUp(running: true, attached: true)
    let task = Self.download(engine, record)
    Self.advance(engine, to: SimTime(.seconds(60)))
    engine.settleBytes(task)
    var effects = EffectBuffer()
    engine.reportBodyDone(task, into: &effects)
    #expect(effects.effects == [.schedule(.deliver(sessionIndex: 0), at: SimTime(.seconds(60)))])
    #expect(task.bytes.reportedDecile == 10)
    if case .didWriteData(_, _, let total) = record.pending.first {
      #expect(total == task.countOfBytesReceived)
    } else {
      Issue.record("expected didWriteData queued")
    }
    withExtendedLifetime(object) {}
  }
}
