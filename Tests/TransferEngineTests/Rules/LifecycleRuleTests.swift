import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// The user's and the system's actions on the app's process alone: (app state, sessions, input)
/// -> effects, with no `Simulation`.
@Suite("Rules: the app launched, left, terminated and force quit")
struct LifecycleRuleTests {
  enum Start: String, CustomStringConvertible {
    case notRunning, foreground, background, suspended
    var description: String { rawValue }

    func put(_ engine: Engine) {
      guard self != .notRunning else { return }
      _ = engine.lifecycle.userLaunch()
      guard self != .foreground else { return }
      _ = engine.lifecycle.userBackground()
      if self == .suspended { _ = engine.lifecycle.suspend() }
    }
  }

  static let resetTrace = Effect.trace(.rateLimiterReset, [TraceField("reason", .string("foreground"))])

  /// (app state, the limiter's delay grew since its reset) -> (effects, state after).
  static let launchTable: [(Start, Bool, [Effect])] = [
    (
      .notRunning, false,
      [
        .trace(.appLaunch, [TraceField("reason", .string("user"))]), .callApp(.launch(.user)),
        .reevaluateWaiting,
      ]
    ),
    (
      .notRunning, true,
      [
        .trace(.appLaunch, [TraceField("reason", .string("user"))]), resetTrace, .callApp(.launch(.user)),
        .reevaluateWaiting,
      ]
    ),
    (.foreground, true, []),
    (
      .suspended, true,
      [
        .trace(.appForeground, []), resetTrace, .callApp(.runLateTimers), .callApp(.willEnterForeground),
        .afterApp(.enteredForeground),
      ]
    ),
    (
      .background, false,
      [
        .trace(.appForeground, []), .callApp(.runLateTimers), .callApp(.willEnterForeground),
        .afterApp(.enteredForeground),
      ]
    ),
  ]

  @Test(
    "a launch starts a process or brings the app to the foreground; the limiter resets",
    arguments: launchTable)
  func launch(_ start: Start, _ woke: Bool, _ expected: [Effect]) {
    let engine = EngineFixture().engine
    start.put(engine)
    if woke { _ = engine.rateLimiter.wake(at: .zero) }
    var effects = EffectBuffer()
    LaunchAppRule.apply(engine: engine, into: &effects)
    #expect(effects.effects == expected)
    #expect(engine.lifecycle.state == .foreground)
    // Only a launch resets the limiter; an app already in the foreground keeps its delay.
    let initial = RateLimiter(policy: Policy.defaults.rateLimiter).delay
    #expect((engine.rateLimiter.delay == initial) == (start != .foreground || !woke))
  }

  @Test("after willEnterForeground, paused transfers resume, then live sessions get deliveries and progress")
  func foregroundSteps() {
    let fixture = EngineFixture()
    fixture.session("a")
    let live = fixture.session("b")
    fixture.session("c", attached: false)
    let also = fixture.session("d", kind: .default)
    var effects = EffectBuffer()
    LaunchAppRule.enteredForeground(into: &effects)
    #expect(effects.effects == [.resumePausedDefaultTransfers, .afterApp(.resumedDefaultTransfers)])
    effects.removeAll()
    LaunchAppRule.resumedTransfers(engine: fixture.engine, into: &effects)
    #expect(
      effects.effects == [
        .schedule(.deliver(sessionIndex: 0), at: .zero), .armSessionProgress(sessionIndex: 0),
        .schedule(.deliver(sessionIndex: live.index), at: .zero),
        .armSessionProgress(sessionIndex: live.index),
        .schedule(.deliver(sessionIndex: also.index), at: .zero),
        .armSessionProgress(sessionIndex: also.index),
        .reevaluateWaiting,
      ])
  }

  /// (app state, Background App Refresh on, an assertion open) -> what leaving the app appends.
  @Test(
    "leaving the app schedules its suspension and tells it; without refresh its background work is cancelled after",
    arguments: [
      (Start.foreground, true, false), (.foreground, false, false), (.foreground, true, true),
      (.background, true, false),
    ])
  func background(_ start: Start, _ refresh: Bool, _ assertion: Bool) {
    let fixture = EngineFixture(backgroundAppRefresh: refresh)
    let engine = fixture.engine
    start.put(engine)
    if assertion { _ = engine.assertions.begin(name: "save") }
    var effects = EffectBuffer()
    BackgroundAppRule.apply(engine: engine, into: &effects)
    guard start == .foreground else {
      #expect(effects.isEmpty)
      return
    }
    var expected: [Effect] = [
      .trace(.appBackground, []),
      .schedule(
        .suspendApp(lifecycleGeneration: engine.lifecycle.generation),
        at: .zero + Policy.defaults.backgroundRunTime),
    ]
    if assertion {
      expected.append(
        .schedule(
          .backgroundTimeExpired(generation: engine.assertions.generation),
          at: .zero + Policy.defaults.backgroundTaskLimit))
    }
    expected.append(.callApp(.didEnterBackground))
    if !refresh { expected.append(.afterApp(.enteredBackground)) }
    #expect(effects.effects == expected)
    #expect(engine.lifecycle.state == .background)
  }

  @Test("with Background App Refresh off, every unfinished background task is cancelled, none admitted")
  func refreshOff() {
    let fixture = EngineFixture(backgroundAppRefresh: false)
    let background = fixture.session("bg")
    let inDefault = fixture.session("default", kind: .default)
    let one = fixture.task("a", .download, in: background)
    let done = fixture.task("b", .download, in: background)
    fixture.task("c", .data, in: inDefault)
    let two = fixture.task("d", .data, in: background)
    _ = fixture.engine.tasks[done].machine.end(.finished)
    var effects = EffectBuffer()
    BackgroundAppRule.enteredBackground(engine: fixture.engine, into: &effects)
    #expect(
      effects.effects
        == [one, two].map {
          .cancelTask(
            uid: $0.uid, produceResumeData: true, reason: .backgroundUpdatesDisabled, admitting: false)
        })
  }

  /// Sessions of every kind with a task each: a default session's data task, a background
  /// session's data task, upload from data and download, and an extension's data task.
  static func world(_ fixture: EngineFixture) -> (
    lost: Int32, disconnected: [Int32], kept: Int32, inExtension: Int32
  ) {
    let inDefault = fixture.session("default", kind: .default)
    let background = fixture.session("bg")
    let shared = fixture.session("share.bg", owner: .appExtension("share"))
    let lost = fixture.task("a", .data, in: inDefault)
    let data = fixture.task("b", .data, in: background)
    let fromData = fixture.task("c", .upload(fromFile: false, size: 1), in: background)
    let download = fixture.task("d", .download, in: background)
    let inExtension = fixture.task("e", .data, in: shared)
    return (lost.uid, [data.uid, fromData.uid], download.uid, inExtension.uid)
  }

  static func processEnd(_ world: (lost: Int32, disconnected: [Int32], kept: Int32, inExtension: Int32))
    -> [Effect]
  {
    [
      .endProcess, .endWake, .detachFromApp(sessionIndex: 0),
      .vanish(uid: world.lost, reason: "appTerminated"),
      .detachFromApp(sessionIndex: 1),
    ] + world.disconnected.map { .disconnect(uid: $0) } + [.rescheduleLinks]
  }

  @Test(
    "the system's termination ends the process; an app not running is left alone",
    arguments: [Start.notRunning, .background, .suspended])
  func terminate(_ start: Start) {
    let fixture = EngineFixture()
    let engine = fixture.engine
    let world = Self.world(fixture)
    start.put(engine)
    if start != .notRunning { _ = engine.assertions.begin(name: "save") }
    var effects = EffectBuffer()
    TerminateAppRule.apply(reason: "watchdog", engine: engine, into: &effects)
    guard start != .notRunning else {
      #expect(effects.isEmpty)
      return
    }
    #expect(
      effects.effects
        == [.trace(.appTerminate, [TraceField("reason", .string("watchdog"))])] + Self.processEnd(world) + [
          .requestWakeCheck
        ])
    #expect(engine.lifecycle.state == .notRunning && !engine.lifecycle.forceQuit)
    #expect(engine.assertions.open.isEmpty)
  }

  @Test("a force quit ends continued tasks for the app switcher, the process, then cancels background work")
  func forceQuit() {
    let fixture = EngineFixture()
    let engine = fixture.engine
    let world = Self.world(fixture)
    Start.foreground.put(engine)
    var effects = EffectBuffer()
    _ = SubmitContinuedProcessingRule.apply(
      .init(identifier: "export", title: "Export", subtitle: "", launch: { _, _ in }), strategy: .queue,
      engine: engine, into: &effects)
    effects.removeAll()
    ForceQuitAppRule.apply(engine: engine, into: &effects)
    // Every background session's task, an extension's included (its process goes on).
    let cancelled = [world.disconnected[0], world.disconnected[1], world.kept, world.inExtension].map {
      Effect.cancelTask(uid: $0, produceResumeData: true, reason: .userForceQuitApplication, admitting: false)
    }
    #expect(
      effects.effects
        == [
          .trace(.appTerminate, [TraceField("reason", .string("forceQuit"))]),
          .trace(
            .continuedEnd,
            [
              TraceField("identifier", .string("export")),
              TraceField("result", .string("cancelledByAppSwitcher")),
            ]),
        ] + Self.processEnd(world) + cancelled)
    #expect(engine.lifecycle.forceQuit)

    effects.removeAll()
    ForceQuitAppRule.apply(engine: engine, into: &effects)
    #expect(effects.isEmpty, "a second force quit does nothing")
  }
}
