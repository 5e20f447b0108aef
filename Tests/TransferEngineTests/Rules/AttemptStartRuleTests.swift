import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// The attempt's start alone: (first or later attempt, what the task kept, the server) ->
/// effects, on an `Engine` built without a `Simulation`.
@Suite("Rule: admission lets a task's attempt start")
struct AttemptStartRuleTests {
  static func start(_ task: SimURLSessionTask, in world: TransferWorld) -> [Effect] {
    world.effects { AttemptStartRule.apply(task, engine: world.engine, into: &$0) }
  }

  static func connectedAfterRoundTrip(_ task: SimURLSessionTask, _ world: TransferWorld) -> Effect {
    .schedule(
      .connected(uid: task.uid, generation: task.machine.generation), at: world.engine.now + world.latency * 2
    )
  }

  @Test("a first attempt is traced task.started and connects one round trip later")
  func firstStart() {
    let world = TransferWorld([ServerResource(url: TransferWorld.url, size: 1_000)])
    let task = world.waiting("f")
    let effects = Self.start(task, in: world)
    #expect(
      effects == [
        .trace(
          .taskStarted,
          [
            TraceField("task", .string("f")), TraceField("session", .string("s")),
            TraceField("taskIdentifier", .int(1)),
          ]),
        Self.connectedAfterRoundTrip(task, world),
      ])
    #expect(task.machine.state == .connecting)
    #expect(task.machine.startedAt == .zero)
  }

  @Test("while invariants are checked, the start is observed before its trace")
  func observed() {
    let world = TransferWorld([ServerResource(url: TransferWorld.url, size: 1_000)])
    world.engine.observing = true
    let task = world.waiting("f")
    let effects = Self.start(task, in: world)
    #expect(effects.first == .observe(.attemptStarted(uid: task.uid, firstStart: true)))
    #expect(effects.count == 3)
  }

  /// (the server's etag now, whether it accepts ranges, the offset `task.retry` reports): the task
  /// received 400 of 1,000 bytes of version "v1" before its connection broke.
  static let retryTable: [(String, Bool, Int64)] = [
    ("v1", true, 400),
    ("v2", true, 0),
    ("v1", false, 0),
  ]

  @Test(
    "a later attempt is traced task.retry with its number and the offset it would continue from",
    arguments: retryTable)
  func retry(_ etag: String, _ acceptsRanges: Bool, _ offset: Int64) {
    let world = TransferWorld([
      ServerResource(url: TransferWorld.url, size: 1_000, etag: etag, acceptsRanges: acceptsRanges)
    ])
    let task = world.waiting("f")
    _ = world.engine.tasks[task].machine.admit(at: .zero)
    world.engine.tasks[task].bytes.downloadResponse(size: 1_000, validator: "v1", offset: 400, resumed: false)
    _ = world.engine.tasks[task].machine.interrupted(at: .zero, retry: world.engine.policy.retry)
    _ = world.engine.tasks[task].machine.backoffEnded()
    let effects = Self.start(task, in: world)
    #expect(
      effects == [
        .trace(
          .taskRetry,
          [
            TraceField("task", .string("f")), TraceField("session", .string("s")),
            TraceField("attempt", .int(2)), TraceField("offset", .int(offset)),
          ]),
        Self.connectedAfterRoundTrip(task, world),
      ])
  }
}
