import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// The wake-check rule alone: (app state, device, sessions) -> (components after, effects), with
/// no `Simulation`.
@Suite("Rule: wake check")
struct WakeCheckRuleTests {
  typealias Rule = WakeCheckRule
  static let now = SimTime(.seconds(100))
  static let facts = Rule.Facts(
    now: now, backgroundAppRefresh: true, deviceLocked: false, completionHandlerTimeout: .seconds(30),
    backgroundTaskLimit: .seconds(30))

  /// A background session that sends launch events, holds events, and finished its work.
  static func session(_ index: Int, _ identifier: String) -> Rule.Session {
    Rule.Session(
      index: index, identifier: identifier, wakesApp: true, hasPending: true, connectionFailed: false,
      heldByExtension: false, wantsWake: true, outstanding: 0)
  }

  /// The components the rule changes, and what it appended.
  struct Outcome {
    var lifecycle: AppLifecycle
    var rateLimiter = RateLimiter(policy: RateLimiterPolicy())
    var wakes = WakeContract()
    var assertions = BackgroundAssertions()
    var effects: [Effect] = []
    var sessionsAsked = false
  }

  static func run(
    in state: AppState, forceQuit: Bool = false, facts: Rule.Facts = facts, sessions: [Rule.Session],
    awaitingAnswer: Set<Int> = []
  ) -> Outcome {
    var o = Outcome(lifecycle: LifecycleMachineTests.lifecycle(in: state, forceQuit: forceQuit))
    let requested = o.wakes.requestCheck()
    #expect(requested)
    var effects = EffectBuffer()
    Rule.apply(
      facts, lifecycle: &o.lifecycle, rateLimiter: &o.rateLimiter, wakes: &o.wakes, assertions: &o.assertions,
      sessions: {
        o.sessionsAsked = true
        return sessions
      }, awaitsAnswer: { awaitingAnswer.contains($0.index) }, into: &effects)
    o.effects = effects.effects
    // The check has run either way: the next request schedules another.
    #expect(!o.wakes.checkPending)
    return o
  }

  /// (app state, force quit, Background App Refresh, locked): the app is not woken, and the
  /// sessions are not even looked at.
  static let notWoken: [(AppState, Bool, Bool, Bool)] = [
    (.foreground, false, true, false),
    (.background, false, true, false),
    (.notRunning, true, true, false),
    (.suspended, false, false, false),
    (.suspended, false, true, true),
    (.notRunning, false, false, false),
  ]

  @Test(
    "no wake while the app runs, after a force quit, with refresh off or the device locked",
    arguments: notWoken)
  func notWokenWhen(_ state: AppState, _ forceQuit: Bool, _ refresh: Bool, _ locked: Bool) {
    var facts = Self.facts
    facts.backgroundAppRefresh = refresh
    facts.deviceLocked = locked
    let o = Self.run(in: state, forceQuit: forceQuit, facts: facts, sessions: [Self.session(0, "bg")])
    #expect(o.effects.isEmpty)
    #expect(!o.sessionsAsked)
    #expect(o.lifecycle.state == state)
    #expect(o.rateLimiter.delayAtWake.isEmpty)
    #expect(o.wakes.wakeCount == 0)
  }

  /// A finished session with `change` applied.
  static func finished(_ change: (inout Rule.Session) -> Void) -> Rule.Session {
    var session = session(0, "bg")
    change(&session)
    return session
  }

  /// (what differs from a finished session, the session, awaiting an answer, owed).
  static let owedTable: [(String, Rule.Session, Bool, Bool)] = [
    ("finished", finished { _ in }, false, true),
    ("not a launch-event session", finished { $0.wakesApp = false }, false, false),
    ("nothing queued", finished { $0.hasPending = false }, true, false),
    ("could not connect", finished { $0.connectionFailed = true }, true, false),
    ("held by an extension", finished { $0.heldByExtension = true }, true, false),
    ("work outstanding", finished { $0.outstanding = 2 }, false, false),
    ("work outstanding, a question queued", finished { $0.outstanding = 2 }, true, true),
    ("not owed, a question queued", finished { $0.wantsWake = false }, true, true),
    ("not owed", finished { $0.wantsWake = false }, false, false),
  ]

  @Test("which sessions are owed a wake", arguments: owedTable)
  func owed(_ name: String, _ session: Rule.Session, _ awaiting: Bool, _ owed: Bool) {
    let o = Self.run(in: .suspended, sessions: [session], awaitingAnswer: awaiting ? [0] : [])
    #expect(o.wakes.wakeCount == (owed ? 1 : 0), "\(name)")
    #expect(o.effects.isEmpty == !owed, "\(name)")
    #expect(o.lifecycle.state == (owed ? .background : .suspended), "\(name)")
  }

  /// The effects of a wake for sessions 0 and 2 (1 is not owed), after `launch` (the trace and
  /// call that start the app).
  static func wakeEffects(_ launch: [Effect]) -> [Effect] {
    let wakeFields = [TraceField("delay", .duration(.seconds(60))), TraceField("wake", .int(1))]
    var effects: [Effect] = [
      .trace(.rateLimiterWake, wakeFields),
      // Idle reset after twice the delay, with the limiter's generation after the wake.
      .schedule(.rateLimiterIdle(generation: 1), at: now + .seconds(120)),
      .sessionWoken(sessionIndex: 0), .sessionWoken(sessionIndex: 2),
    ]
    effects += launch
    effects.append(.schedule(.completionHandlerTimeout(wake: 1), at: now + .seconds(30)))
    for (index, identifier) in [(0, "a"), (2, "c")] {
      effects += [
        .trace(.delegateHandleEvents, [TraceField("session", .string(identifier))]),
        .callApp(.handleEvents(session: identifier, wake: 1)),
        .schedule(.deliver(sessionIndex: index), at: now),
      ]
    }
    return effects + [.reevaluateWaiting]
  }

  static let launches: [(AppState, [Effect])] = [
    (
      .suspended,
      [.trace(.appResume, [TraceField("reason", .string("background"))]), .callApp(.runLateTimers)]
    ),
    (
      .notRunning,
      [.trace(.appLaunch, [TraceField("reason", .string("background"))]), .callApp(.launch(.background))]
    ),
  ]

  @Test(
    "a wake grows the delay first, resumes or relaunches, arms the timeout, hands over each session",
    arguments: launches)
  func wake(_ state: AppState, _ launch: [Effect]) {
    var notOwed = Self.session(1, "b")
    notOwed.outstanding = 1
    let o = Self.run(in: state, sessions: [Self.session(0, "a"), notOwed, Self.session(2, "c")])
    #expect(o.effects == Self.wakeEffects(launch))
    #expect(o.lifecycle.state == .background)
    #expect(o.rateLimiter.delayAtWake == [.seconds(60)])
    #expect(o.wakes.currentWake == 1)
    // The handlers of sessions a and c are awaited; b was not part of the wake.
    var wakes = o.wakes
    let aDue = wakes.eventsDelivered("a")
    let bDue = wakes.eventsDelivered("b")
    #expect(aDue && !bDue)
    // The assertions' background time starts at the wake.
    #expect(o.assertions.budgetEnd == Self.now + .seconds(30))
  }
}
