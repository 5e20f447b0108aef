import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// The authentication-challenge rules alone: (resource, task's challenge, input) -> (effects,
/// challenge after), on an `Engine` built without a `Simulation`. The session's delegate answers
/// no challenges, so a raised challenge is answered by default handling at once.
@Suite("Rules: authentication challenges")
struct ChallengeRuleTests {
  static let url = SimURL("https://a.example/private")!
  static let basic = ProtectionSpace(method: .basic, realm: "files", user: "ann", password: "pw")
  static let digest = ProtectionSpace(method: .digest, realm: "vault", user: "bob", password: "pw2")

  /// An engine serving `url` with `spaces`, and one download of it connecting (attempt running).
  static func setUp(spaces: [ProtectionSpace] = [basic, digest]) -> (Engine, SimURLSessionTask) {
    let server = ServerModel(resources: [ServerResource(url: url, size: 1_000, auth: spaces)])
    let engine = Engine(policy: .defaults, device: .wifi, server: server)
    let record = engine.daemon.addSession(.background(withIdentifier: "bg"), simulation: nil)
    let task = SimURLSessionTask(
      in: engine.tasks, taskIdentifier: record.nextIdentifier(), kind: .download, url: url,
      session: record, name: "doc", createdInBackground: false, resumeFrom: nil)
    record.add(task)
    engine.daemon.addTask(task)
    _ = engine.tasks[task].machine.resume()
    _ = engine.tasks[task].machine.admit(at: .zero)
    return (engine, task)
  }

  static func challenged(_ space: ProtectionSpace, failures: Int = 0) -> Effect {
    .trace(
      .taskChallenged,
      [
        TraceField("task", .string("doc")), TraceField("level", .string("task")),
        TraceField("method", .string(space.method.rawValue)), TraceField("realm", .string(space.realm)),
        TraceField("previousFailureCount", .int(Int64(failures))),
      ])
  }

  static func answered(_ disposition: String, user: String? = nil) -> Effect {
    var fields = [TraceField("task", .string("doc")), TraceField("disposition", .string(disposition))]
    if let user { fields.append(TraceField("user", .string(user))) }
    return .trace(.taskChallengeAnswered, fields)
  }

  /// The 401 as the response (`Engine.respond`): no body, so the download finishes.
  static let unauthorized = Effect.finish(uid: 0)
  /// Raised and, with no delegate method to ask, answered by default handling: the 401.
  static let defaultHandled = [challenged(basic), answered("performDefaultHandling"), unauthorized]

  // MARK: The response arrives

  /// (name, the resource's spaces, the fault skips authentication, outcome, effects).
  static let responseTable:
    [(String, [ProtectionSpace], Bool, ResponseAuthenticationRule.Outcome, [Effect])] = [
      ("no credential needed", [], false, .passes, []),
      (
        "a protected resource challenges in its first space", [basic, digest], false, .takenOver,
        defaultHandled
      ),
      ("the injected fault lets it through", [basic], true, .passes, []),
    ]

  @Test("a response to a protected resource raises a challenge", arguments: responseTable)
  func response(
    _ name: String, _ spaces: [ProtectionSpace], _ skips: Bool, _ outcome: ResponseAuthenticationRule.Outcome,
    _ expected: [Effect]
  ) {
    let (engine, task) = Self.setUp(spaces: spaces)
    var effects = EffectBuffer()
    let got = ResponseAuthenticationRule.apply(
      task, engine: engine, skipsAuthentication: skips, into: &effects)
    #expect(got == outcome, "\(name)")
    #expect(effects.effects == expected, "\(name)")
    #expect(task.challenge.awaitedSpace == nil)
    // A task holds its session unowned: keep the engine that owns it alive to the end.
    withExtendedLifetime(engine) {}
  }

  /// (name, credential accepted, failures before, effects).
  static let credentialTable: [(String, Bool, Int, ResponseAuthenticationRule.Outcome, [Effect])] = [
    (
      "accepted: authenticated, the response goes on", true, 0, .passes,
      [
        .trace(
          .taskAuthenticated, [TraceField("task", .string("doc")), TraceField("session", .string("bg"))])
      ]
    ),
    (
      "refused: challenged again in the same space", false, 0, .takenOver,
      [
        challenged(basic, failures: 1), answered("performDefaultHandling"), unauthorized,
      ]
    ),
    ("refused for the third time: the 401", false, 2, .takenOver, [unauthorized]),
  ]

  @Test("a presented credential comes back accepted or refused", arguments: credentialTable)
  func credential(
    _ name: String, _ accepted: Bool, _ failuresBefore: Int, _ outcome: ResponseAuthenticationRule.Outcome,
    _ expected: [Effect]
  ) {
    let (engine, task) = Self.setUp()
    for _ in 0..<failuresBefore {
      engine.tasks[task].challenge.presenting(space: 0, accepted: false)
      _ = engine.tasks[task].challenge.credentialArrived(at: Self.url)
    }
    engine.tasks[task].challenge.challenged(space: 0)
    engine.tasks[task].challenge.presenting(space: 0, accepted: accepted)
    var effects = EffectBuffer()
    let got = ResponseAuthenticationRule.apply(
      task, engine: engine, skipsAuthentication: false, into: &effects)
    #expect(got == outcome, "\(name)")
    #expect(effects.effects == expected, "\(name)")
    #expect(task.challenge.isAuthenticated(for: Self.url) == accepted)
    // A task holds its session unowned: keep the engine that owns it alive to the end.
    withExtendedLifetime(engine) {}
  }

  // MARK: The app answers

  /// (name, the answer, effects after the cancelled timer).
  static let answerTable: [(String, SimAuthChallengeDisposition, [Effect])] = [
    (
      "a credential: one more round trip", .useCredential(SimURLCredential(user: "ann", password: "pw")),
      [answered("useCredential", user: "ann")]
    ),
    (
      "default handling: the 401", .performDefaultHandling,
      [answered("performDefaultHandling"), unauthorized]
    ),
    (
      "cancel: the task is cancelled", .cancelAuthenticationChallenge,
      [
        answered("cancelAuthenticationChallenge"),
        .cancelTask(uid: 0, produceResumeData: false, reason: nil, admitting: true),
      ]
    ),
    (
      "reject: the next space is challenged", .rejectProtectionSpace,
      [
        answered("rejectProtectionSpace"), challenged(digest), answered("performDefaultHandling"),
        unauthorized,
      ]
    ),
  ]

  @Test("the answer's timer is cancelled and the answer carried out", arguments: answerTable)
  func answer(_ name: String, _ answer: SimAuthChallengeDisposition, _ expected: [Effect]) {
    let (engine, task) = Self.setUp()
    let generation = task.machine.generation
    engine.tasks[task].challenge.challenged(space: 0)
    let timer = engine.scheduler.schedule(
      .challengeTimeout(uid: 0, generation: generation), at: SimTime(.seconds(60)))
    engine.tasks[task].challenge.timerArmed(timer)
    #expect(ChallengeAnsweredRule.asks(task, generation: generation))
    var effects = EffectBuffer()
    ChallengeAnsweredRule.apply(task, answer, generation: generation, engine: engine, into: &effects)
    var all = [Effect.cancelEvent(timer)] + expected
    if case .useCredential = answer {
      all.append(
        .schedule(
          .connected(uid: 0, generation: generation), at: engine.now + engine.links.network.latency * 2))
      #expect(engine.tasks[task].challenge.credentialArrived(at: Self.url)?.accepted == true)
    }
    #expect(effects.effects == all, "\(name)")
    // A task holds its session unowned: keep the engine that owns it alive to the end.
    withExtendedLifetime(engine) {}
  }

  @Test("rejecting the last space answers the 401")
  func rejectLast() {
    let (engine, task) = Self.setUp()
    engine.tasks[task].challenge.challenged(space: 1)
    var effects = EffectBuffer()
    ChallengeAnsweredRule.apply(
      task, .rejectProtectionSpace, generation: task.machine.generation, engine: engine, into: &effects)
    #expect(effects.effects == [Self.answered("rejectProtectionSpace"), Self.unauthorized])
    #expect(task.statusCode == 401)
    // A task holds its session unowned: keep the engine that owns it alive to the end.
    withExtendedLifetime(engine) {}
  }

  @Test("an answer for another attempt, or with no challenge awaited, changes nothing")
  func staleAnswer() {
    let (engine, task) = Self.setUp()
    engine.tasks[task].challenge.challenged(space: 0)
    var effects = EffectBuffer()
    let stale = task.machine.generation &+ 1
    #expect(!ChallengeAnsweredRule.asks(task, generation: stale))
    ChallengeAnsweredRule.apply(
      task, .performDefaultHandling, generation: stale, engine: engine, into: &effects)
    #expect(effects.isEmpty)
    #expect(task.challenge.awaitedSpace == 0)
    engine.tasks[task].challenge.gaveUp()
    #expect(!ChallengeAnsweredRule.asks(task, generation: task.machine.generation))
    ChallengeAnsweredRule.apply(
      task, .performDefaultHandling, generation: task.machine.generation, engine: engine, into: &effects)
    #expect(effects.isEmpty)
    // A task holds its session unowned: keep the engine that owns it alive to the end.
    withExtendedLifetime(engine) {}
  }

  // MARK: No answer in time

  @Test("an unanswered challenge times out: the task fails with -1001")
  func timeout() {
    let (engine, task) = Self.setUp()
    engine.tasks[task].challenge.challenged(space: 0)
    var effects = EffectBuffer()
    ChallengeTimeoutRule.apply(task, engine: engine, into: &effects)
    #expect(
      effects.effects == [
        .trace(
          .taskChallengeTimedOut, [TraceField("task", .string("doc")), TraceField("session", .string("bg"))]),
        TaskEndingRuleTests.failed("doc", session: "bg", .timedOut), TaskEndingRuleTests.wakeCheck,
        .rescheduleLinks,
      ])
    #expect(task.challenge.awaitedSpace == nil)
    #expect(task.error?.code == .timedOut && !task.machine.isActive, "taken off its connection, failed")
    // Answered meanwhile: the timeout changes nothing.
    var again = EffectBuffer()
    ChallengeTimeoutRule.apply(task, engine: engine, into: &again)
    #expect(again.isEmpty)
    // A task holds its session unowned: keep the engine that owns it alive to the end.
    withExtendedLifetime(engine) {}
  }
}
