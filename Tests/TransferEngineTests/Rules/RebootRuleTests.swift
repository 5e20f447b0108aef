import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// The restart rule alone: (app state, extensions, transfers) -> (engine after, effects), on an
/// `Engine` with no `Simulation`.
@Suite("Rule: device restart")
struct RebootRuleTests {
  static let now = SimTime(.seconds(40))
  static let unlockAfter = SimDuration.seconds(90)

  static func engine(keepsBackgroundTasks: Bool = true) -> Engine {
    let engine = Engine(
      policy: Policy(
        reboot: RebootPolicy(keepsBackgroundTasks: keepsBackgroundTasks, unlockAfter: unlockAfter)),
      device: DeviceModel(), server: ServerModel())
    engine.scheduler.advance(to: now)
    return engine
  }

  /// (app state, whether its process ends).
  static let states: [(AppState, Bool)] = [
    (.notRunning, false), (.foreground, true), (.background, true), (.suspended, true),
  ]

  @Test(
    "a restart is traced with its unlock time, ends a live process and every extension (by name), then cuts transfers",
    arguments: states)
  func restart(_ state: AppState, _ endsProcess: Bool) {
    let engine = Self.engine()
    engine.lifecycle = LifecycleMachineTests.lifecycle(in: state)
    for name in ["share", "action"] {
      let opened = engine.extensions.open(name)
      #expect(opened)
    }
    var effects = EffectBuffer()
    RebootRule.apply(engine: engine, into: &effects)
    let unlockAt = Self.now + Self.unlockAfter
    var expected: [Effect] = [.trace(.deviceReboot, [TraceField("unlockAt", .duration(unlockAt.sinceStart))])]
    if endsProcess {
      expected += [.trace(.appTerminate, [TraceField("reason", .string("reboot"))]), .processEnded]
    }
    expected += [
      .extensionEndedByRestart(name: "action"), .extensionEndedByRestart(name: "share"),
      .restartCutsTransfers(restart: 1, unlockAt: unlockAt),
    ]
    #expect(effects.effects == expected)
    #expect(engine.lifecycle.state == .notRunning)
    #expect(!engine.lifecycle.forceQuit)
    #expect(engine.links.lockedSinceRestart)
    #expect(engine.links.restartCount == 1)
    #expect(!engine.extensions.isRunning("share") && !engine.extensions.isRunning("action"))
    // A second restart is a new one: its own unlock, no process or extension left to end.
    effects.removeAll()
    RebootRule.apply(engine: engine, into: &effects)
    #expect(
      effects.effects == [
        .trace(.deviceReboot, [TraceField("unlockAt", .duration(unlockAt.sinceStart))]),
        .restartCutsTransfers(restart: 2, unlockAt: unlockAt),
      ])
  }

  typealias Task = RebootRule.Task
  static let tasks = [
    Task(uid: 3, resumeSequence: 5, isBackground: true), Task(uid: 1, resumeSequence: 9, isBackground: false),
    Task(uid: 4, resumeSequence: 2, isBackground: true), Task(uid: 6, resumeSequence: 7, isBackground: true),
  ]
  static let tail: [Effect] = [
    .rescheduleLinks, .schedule(.deviceUnlock(restart: 2), at: SimTime(.seconds(100))), .reevaluateWaiting,
  ]

  @Test("kept tasks: every transfer is cut in order, then the background ones queue again in resume order")
  func keptTasksRetry() {
    var effects = EffectBuffer()
    RebootRule.cutTransfers(
      keepsBackgroundTasks: true, Self.tasks, restart: 2, unlockAt: SimTime(.seconds(100)), into: &effects)
    #expect(
      effects.effects
        == [3, 1, 4, 6].map { .interrupt(uid: $0, reason: "reboot", retryNow: true) }
        + [4, 3, 6].map { .requeueAhead(uid: $0) } + Self.tail)
  }

  @Test("tasks not kept: every unfinished background task is lost, nothing retries")
  func tasksNotKeptVanish() {
    var effects = EffectBuffer()
    RebootRule.cutTransfers(
      keepsBackgroundTasks: false, Self.tasks, restart: 2, unlockAt: SimTime(.seconds(100)), into: &effects)
    #expect(effects.effects == [3, 1, 4, 6].map { .vanish(uid: $0, reason: "deviceRestarted") } + Self.tail)
  }

  @Test("nothing in flight: the links are re-armed, the unlock scheduled and waiting tasks decided again")
  func nothingInFlight() {
    for keeps in [true, false] {
      var effects = EffectBuffer()
      RebootRule.cutTransfers(
        keepsBackgroundTasks: keeps, [], restart: 2, unlockAt: SimTime(.seconds(100)), into: &effects)
      #expect(effects.effects == Self.tail)
      // On an engine with no task the engine's entry gathers nothing either.
      effects.removeAll()
      RebootRule.cutTransfers(
        restart: 2, unlockAt: SimTime(.seconds(100)), engine: Self.engine(keepsBackgroundTasks: keeps),
        into: &effects)
      #expect(effects.effects == Self.tail)
    }
  }
}
