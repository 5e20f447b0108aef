import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// The transfer timers' rules alone (a retry backoff ends, the resource timeout, the request idle
/// timeout): (task state, session kind) -> effects, on an `Engine` built without a `Simulation`.
@Suite("Rules: a transfer's backoff and timeouts fire")
struct TransferTimerRuleTests {
  /// Where a task is when its timer fires.
  enum Place: String, CaseIterable, CustomStringConvertible {
    case created, connecting, transferring, stalled, paused, backingOff, finished
    var description: String { rawValue }
  }

  /// A download of a session of `kind`, brought to `place` through its state machine.
  static func task(
    at place: Place, kind: SessionConfiguration.Kind = .background, in fixture: EngineFixture
  ) -> SimURLSessionTask {
    let task = fixture.task("f", .download, in: fixture.session("s", kind: kind))
    guard place != .created else { return task }
    _ = fixture.engine.tasks[task].machine.resume()
    _ = fixture.engine.tasks[task].machine.admit(at: .zero)
    switch place {
    case .created, .connecting: break
    case .transferring: _ = fixture.engine.tasks[task].machine.connected(up: false)
    case .stalled:
      _ = fixture.engine.tasks[task].machine.connected(up: false)
      _ = fixture.engine.tasks[task].machine.stall(at: .zero)
    case .paused: _ = fixture.engine.tasks[task].machine.paused(at: .zero)
    case .backingOff:
      _ = fixture.engine.tasks[task].machine.interrupted(at: .zero, retry: fixture.engine.policy.retry)
    case .finished: _ = fixture.engine.tasks[task].machine.end(.finished)
    }
    return task
  }

  @Test(
    "a backoff's end queues a task still backing off once; any other task ignores it",
    arguments: Place.allCases)
  func backoffEnded(_ place: Place) {
    let fixture = EngineFixture()
    let task = Self.task(at: place, in: fixture)
    var effects = EffectBuffer()
    BackoffEndedRule.apply(task, engine: fixture.engine, into: &effects)
    #expect(effects.effects == (place == .backingOff ? [.enqueue(uid: task.uid)] : []))
    if place == .backingOff {
      #expect(task.machine.state == .waiting(traced: .retryBackoff))
      // The task waits now: a second firing changes nothing.
      BackoffEndedRule.apply(task, engine: fixture.engine, into: &effects)
      #expect(effects.effects == [.enqueue(uid: task.uid)])
    }
  }

  @Test(
    "the resource timeout withdraws and fails an unfinished task with -1001; a finished one is left alone",
    arguments: Place.allCases)
  func resourceTimeout(_ place: Place) {
    let fixture = EngineFixture()
    let task = Self.task(at: place, in: fixture)
    var effects = EffectBuffer()
    ResourceTimeoutRule.apply(task, engine: fixture.engine, into: &effects)
    let expected: [Effect] =
      place == .finished
      ? []
      : [
        TaskEndingRuleTests.failed("f", session: "s", .timedOut), TaskEndingRuleTests.wakeCheck,
        .rescheduleLinks,
      ]
    #expect(effects.effects == expected, "\(place)")
    #expect(task.isFinished)
    #expect(!task.machine.isActive, "\(place)")
  }

  /// The request idle timeout's failure of task `f` (-1001), and the wake check every ending asks.
  static let timedOut = [
    TaskEndingRuleTests.failed("f", session: "s", .timedOut), TaskEndingRuleTests.wakeCheck,
  ]

  /// (place, session kind, effects with `uid` 0, attempts the rule itself ended: taking a task
  /// off its link ends one, its failure another).
  static let requestTable: [(Place, SessionConfiguration.Kind, [Effect], UInt32)] = [
    (
      .stalled, .background,
      [.interrupt(uid: 0, reason: "requestTimeout", retryNow: false), .rescheduleLinks], 0
    ),
    (.stalled, .default, timedOut + [.rescheduleLinks], 2),
    (.paused, .default, timedOut, 1),
    (.transferring, .default, [], 0),
    (.transferring, .background, [], 0),
    (.connecting, .background, [], 0),
    (.backingOff, .background, [], 0),
    (.created, .default, [], 0),
  ]

  @Test(
    "the request idle timeout retries a stalled background transfer, fails a stalled or paused default one",
    arguments: requestTable)
  func requestTimeout(
    _ place: Place, _ kind: SessionConfiguration.Kind, _ expected: [Effect], _ ended: UInt32
  ) {
    let fixture = EngineFixture()
    let task = Self.task(at: place, kind: kind, in: fixture)
    let generation = task.machine.generation
    var effects = EffectBuffer()
    RequestTimeoutRule.apply(task, engine: fixture.engine, into: &effects)
    #expect(effects.effects == expected, "\(place) \(kind)")
    // A default transfer is taken off its attempt and failed by the rule itself: its events go stale.
    #expect(task.machine.generation == generation &+ ended, "\(place) \(kind)")
    #expect(task.isFinished == (ended > 0), "\(place) \(kind)")
  }
}
