import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// Default sessions' transfers pause with their suspended app and queue again in the foreground
/// (`Engine.pauseDefaultTransfers`, `resumePausedDefaultTransfers`): (sessions, app) -> (effects,
/// tasks and links after), on an `Engine` built without a `Simulation`.
@Suite("Rules: default sessions' transfers pause and resume with the app")
struct DefaultSessionTransfersTests {
  /// A suspended app with, in each session kind, a download `f` on the link holding the only
  /// connection and a download `g` waiting behind it.
  static func suspendedWithTransfers(kind: SessionConfiguration.Kind) -> (
    EngineFixture, running: SimURLSessionTask, waiting: SimURLSessionTask
  ) {
    let fixture = TaskEndingRuleTests.fixture(running: true)
    let record = fixture.session("s", kind: kind)
    let running = fixture.task("f", .download, in: record)
    let waiting = fixture.task("g", .download, in: record)
    TaskEndingRuleTests.start(running, engine: fixture.engine)
    TaskEndingRuleTests.start(waiting, engine: fixture.engine)
    fixture.engine.links.add(running.uid, up: false, bytes: 1_000, now: .zero)
    fixture.engine.tasks[running].bytes.flowJoined(1_000, up: false)
    _ = fixture.engine.lifecycle.userBackground()
    _ = fixture.engine.lifecycle.suspend()
    return (fixture, running, waiting)
  }

  static func deferred(_ task: SimURLSessionTask, _ reason: String) -> Effect {
    .trace(
      .taskDeferred,
      [
        TraceField("task", .string(task.name)), TraceField("session", .string("s")),
        TraceField("reason", .string(reason)),
      ])
  }

  @Test("a default transfer leaves its link and its connection, is traced paused and arms its idle timer")
  func pause() {
    let (fixture, running, waiting) = Self.suspendedWithTransfers(kind: .default)
    let engine = fixture.engine
    var effects = EffectBuffer()
    engine.pauseDefaultTransfers(into: &effects)
    #expect(
      effects.effects == [
        Self.deferred(waiting, "appSuspended"),
        .trace(
          .taskPaused, [TraceField("task", .string("f")), TraceField("reason", .string("appSuspended"))]),
        .armRequestTimeout(
          uid: running.uid, generation: running.machine.generation,
          after: running.session.configuration.timeoutIntervalForRequest),
        .rescheduleLinks,
      ])
    #expect(running.machine.state == .paused(since: .zero))
    #expect(engine.links.activeFlows.down == 0, "it left its link")
    #expect(engine.daemon.running(engine.daemon.ensureQueue(for: running)) == 0, "its connection is free")
    #expect(waiting.machine.isWaiting, "the app is suspended: the waiting task may not take the slot")
  }

  @Test("a background session's transfers go on")
  func backgroundGoesOn() {
    let (fixture, running, _) = Self.suspendedWithTransfers(kind: .background)
    var effects = EffectBuffer()
    fixture.engine.pauseDefaultTransfers(into: &effects)
    #expect(effects.effects == [.rescheduleLinks])
    #expect(running.machine.isActive && fixture.engine.links.activeFlows.down == 1)
  }

  @Test(
    "in the foreground a paused transfer stops its idle timer and queues again, behind the task that waited")
  func resume() {
    let (fixture, running, waiting) = Self.suspendedWithTransfers(kind: .default)
    let engine = fixture.engine
    var effects = EffectBuffer()
    engine.pauseDefaultTransfers(into: &effects)
    let idle = engine.scheduler.schedule(
      .requestTimeout(uid: running.uid, generation: running.machine.generation), after: .seconds(60))
    engine.tasks[running].record.idleTimerStarted(idle)
    _ = engine.lifecycle.userLaunch()
    effects.removeAll()
    engine.resumePausedDefaultTransfers(into: &effects)
    #expect(!engine.scheduler.isPending(idle), "its idle timer is cancelled")
    #expect(
      effects.effects == [
        Self.deferred(running, "connectionLimit"), .beginAttempt(uid: waiting.uid),
        .explainWait(uid: running.uid, key: engine.daemon.ensureQueue(for: running)),
      ])
    #expect(engine.daemon.running(engine.daemon.ensureQueue(for: running)) == 1)
    effects.removeAll()
    engine.resumePausedDefaultTransfers(into: &effects)
    #expect(effects.isEmpty, "nothing is paused any more")
  }
}
