import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// The interruption rule alone: (session kind, task state, retry now) -> (effects, state after),
/// on an `Engine` built without a `Simulation`.
@Suite("Rule: a transfer's connection breaks")
struct InterruptRuleTests {
  typealias Place = TransferTimerRuleTests.Place

  static let interrupted = Effect.trace(
    .taskInterrupted,
    [
      TraceField("task", .string("f")), TraceField("reason", .string("networkLost")),
      TraceField("bytes", .int(0)),
    ])

  static func apply(_ task: SimURLSessionTask, retryNow: Bool, engine: Engine) -> [Effect] {
    var effects = EffectBuffer()
    InterruptRule.apply(task, reason: "networkLost", retryNow: retryNow, engine: engine, into: &effects)
    return effects.effects
  }

  @Test(
    "a default session's transfer fails with -1005 after its trace",
    arguments: [Place.connecting, .transferring, .stalled])
  func defaultFails(_ place: Place) {
    let fixture = EngineFixture()
    let task = TransferTimerRuleTests.task(at: place, kind: .default, in: fixture)
    let generation = task.machine.generation
    let effects = Self.apply(task, retryNow: false, engine: fixture.engine)
    #expect(
      effects == [
        Self.interrupted, TaskEndingRuleTests.failed("f", session: "s", .networkConnectionLost),
        TaskEndingRuleTests.wakeCheck,
      ])
    #expect(task.error?.code == .networkConnectionLost && task.isFinished)
    // Taken off its link, then failed: each ends an attempt, so its pending events go stale.
    #expect(task.machine.generation == generation &+ 2)
  }

  @Test(
    "a background transfer backs off for the policy's first backoff and arms its retry",
    arguments: [Place.connecting, .transferring, .stalled])
  func backgroundBacksOff(_ place: Place) {
    let fixture = EngineFixture()
    let task = TransferTimerRuleTests.task(at: place, in: fixture)
    let effects = Self.apply(task, retryNow: false, engine: fixture.engine)
    let retry = fixture.engine.policy.retry
    let wait = min(retry.backoff, retry.maxBackoff)
    #expect(
      effects == [
        Self.interrupted,
        .schedule(.retry(uid: task.uid, generation: task.machine.generation), at: SimTime.zero + wait),
      ])
    #expect(task.machine.state == .backingOff(until: SimTime.zero + wait))
  }

  @Test("with retryNow a background transfer skips the backoff and waits again, reclaiming its slot")
  func retryNow() {
    let fixture = EngineFixture()
    let task = TransferTimerRuleTests.task(at: .transferring, in: fixture)
    #expect(Self.apply(task, retryNow: true, engine: fixture.engine) == [Self.interrupted])
    #expect(task.machine.isWaiting && task.machine.reclaimsSlot)
  }

  @Test("a task not running is left alone", arguments: [Place.created, .paused, .backingOff, .finished])
  func notRunning(_ place: Place) {
    let fixture = EngineFixture()
    let task = TransferTimerRuleTests.task(at: place, in: fixture)
    let state = task.machine.state
    #expect(Self.apply(task, retryNow: false, engine: fixture.engine).isEmpty)
    #expect(task.machine.state == state)
  }
}
