import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// The `willBeginDelayedRequest` rules alone: (app, task, input) -> (effects, task after), on an
/// `Engine` built without a `Simulation`.
@Suite("Rules: delayed requests")
struct DelayedRequestRuleTests {
  /// An engine with one session and one download in it, `resumed` (then waiting in its queue).
  static func setUp(background: Bool = true, resumed: Bool = true) -> (Engine, SimURLSessionTask) {
    let engine = Engine(policy: .defaults, device: .wifi, server: .init())
    let configuration: SessionConfiguration =
      background ? .background(withIdentifier: "bg") : SessionConfiguration(identifier: "fg", kind: .default)
    let record = engine.daemon.addSession(configuration, simulation: nil)
    let task = SimURLSessionTask(
      in: engine.tasks, taskIdentifier: record.nextIdentifier(), kind: .download,
      url: SimURL("https://a.example/feed")!, session: record, name: "feed", createdInBackground: false,
      resumeFrom: nil)
    record.add(task)
    engine.daemon.addTask(task)
    if resumed {
      #expect(engine.tasks[task].machine.resume() == .start)
      _ = engine.daemon.insert(task)
    }
    return (engine, task)
  }

  static let deliver = Effect.schedule(.deliver(sessionIndex: 0), at: .zero)
  static let wakeCheck = Effect.schedule(.wakeCheck, at: .zero)

  /// (name, app running, effects, session owes a wake).
  static let askTable: [(String, Bool, [Effect], Bool)] = [
    ("the app is away: queued, owed a wake, a check", false, [wakeCheck], true),
    ("the app runs, session not attached: still owed", true, [wakeCheck], true),
  ]

  @Test("a question is queued once, and owes a wake while the app cannot take it", arguments: askTable)
  func ask(_ name: String, _ running: Bool, _ expected: [Effect], _ owes: Bool) {
    let (engine, task) = Self.setUp()
    if running { _ = engine.lifecycle.userLaunch() }
    var effects = EffectBuffer()
    DelayedRequestAskRule.apply(task, engine: engine, into: &effects)
    #expect(effects.effects == expected, "\(name)")
    #expect(task.delayedRequest == .asked)
    #expect(task.session.wantsWake == owes)
    #expect(Self.questions(task.session) == ["feed"])
    // Asked once: a second pass that holds the task again adds nothing.
    var again = EffectBuffer()
    DelayedRequestAskRule.apply(task, engine: engine, into: &again)
    #expect(again.isEmpty)
    #expect(task.session.pending.count == 1)
    // A task holds its session unowned: keep the engine that owns it alive to the end.
    withExtendedLifetime(engine) {}
  }

  /// The tasks of the `willBeginDelayedRequest` questions a session holds, in order.
  static func questions(_ record: DaemonSession) -> [String] {
    record.pending.compactMap { event in
      if case .willBeginDelayedRequest(let task) = event { return task.name }
      return nil
    }
  }

  @Test("a default session's question owes no wake")
  func askDefault() {
    let (engine, task) = Self.setUp(background: false)
    var effects = EffectBuffer()
    DelayedRequestAskRule.apply(task, engine: engine, into: &effects)
    #expect(effects.effects == [Self.wakeCheck])
    #expect(!task.session.wantsWake)
    // A task holds its session unowned: keep the engine that owns it alive to the end.
    withExtendedLifetime(engine) {}
  }

  static func answered(_ disposition: String, url: String? = nil) -> Effect {
    var fields = [TraceField("task", .string("feed")), TraceField("disposition", .string(disposition))]
    if let url { fields.append(TraceField("url", .string(url))) }
    return .trace(.taskDelayedRequestAnswered, fields)
  }

  static let fresh = SimURL("https://b.example/fresh")!
  /// The queue `setUp` put the task in, the engine's first ("bg a.example").
  static let firstQueue = WaitQueue.Key(index: 0)

  /// (name, answer, task still waiting, effects, URL after).
  static let answerTable: [(String, SimDelayedRequestDisposition, Bool, [Effect], String)] = [
    (
      "continue: an admission pass over its queue", .continueLoading, true,
      [answered("continueLoading"), .admissionPass(key: firstQueue, full: false)],
      "https://a.example/feed"
    ),
    (
      "continue, no longer waiting", .continueLoading, false, [answered("continueLoading")],
      "https://a.example/feed"
    ),
    (
      "a new request: queued again under its new host", .useNewRequest(url: fresh), true,
      [answered("useNewRequest", url: fresh.string), .enqueue(uid: 0)], fresh.string
    ),
    (
      "a new request, no longer waiting: only the URL changes", .useNewRequest(url: fresh), false,
      [answered("useNewRequest", url: fresh.string)], fresh.string
    ),
    (
      "cancel", .cancel, true,
      [answered("cancel"), .cancelTask(uid: 0, produceResumeData: false, reason: nil, admitting: true)],
      "https://a.example/feed"
    ),
  ]

  @Test("the answer is traced and carried out", arguments: answerTable)
  func answer(
    _ name: String, _ answer: SimDelayedRequestDisposition, _ waiting: Bool, _ expected: [Effect],
    _ url: String
  ) {
    let (engine, task) = Self.setUp(resumed: waiting)
    engine.tasks[task].delayedRequest = .asked
    var effects = EffectBuffer()
    DelayedRequestAnsweredRule.apply(task, answer, engine: engine, into: &effects)
    #expect(effects.effects == expected, "\(name)")
    #expect(task.delayedRequest == .answered)
    #expect(task.currentURL.string == url)
    if case .useNewRequest = answer, waiting {
      // Taken out of the old host's queue; the `.enqueue` effect puts it in the new one.
      // The first queue made is the old host's.
      let old = WaitQueue.Key(index: 0)
      #expect(engine.daemon.queueName(old) == "bg a.example")
      #expect(!engine.daemon.hasWaiting(old))
    }
    // A task holds its session unowned: keep the engine that owns it alive to the end.
    withExtendedLifetime(engine) {}
  }

  @Test("an answer for a task that ended changes nothing")
  func answerAfterEnd() {
    let (engine, task) = Self.setUp()
    engine.tasks[task].delayedRequest = .asked
    _ = engine.tasks[task].machine.end(.cancelled)
    var effects = EffectBuffer()
    DelayedRequestAnsweredRule.apply(task, .cancel, engine: engine, into: &effects)
    #expect(effects.isEmpty)
    #expect(task.delayedRequest == .asked)
    // A task holds its session unowned: keep the engine that owns it alive to the end.
    withExtendedLifetime(engine) {}
  }

  @Test("the question is put only to a task still waiting for it")
  func asks() {
    let (engine1, waiting) = Self.setUp()
    engine1.tasks[waiting].delayedRequest = .asked
    #expect(DelayedRequestAnsweredRule.asks(waiting, engine: engine1))
    // Suspended by the app meanwhile: not asked now, asked again once it waits again.
    let (engine2, created) = Self.setUp(resumed: false)
    engine2.tasks[created].delayedRequest = .asked
    #expect(!DelayedRequestAnsweredRule.asks(created, engine: engine2))
    #expect(created.delayedRequest == .notAsked)
    let (engine3, answered) = Self.setUp()
    engine3.tasks[answered].delayedRequest = .answered
    #expect(!DelayedRequestAnsweredRule.asks(answered, engine: engine3))
    // A task holds its session unowned: keep the engine that owns it alive to the end.
    withExtendedLifetime(engine1) {}
    withExtendedLifetime(engine2) {}
    withExtendedLifetime(engine3) {}
  }
}
