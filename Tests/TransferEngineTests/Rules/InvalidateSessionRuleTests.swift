import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// `finishTasksAndInvalidate()` and `invalidateAndCancel()` alone: (tasks, call) -> effects,
/// and when `didBecomeInvalidWithError` is queued, with no `Simulation`.
@Suite("Rule: invalidate a session")
struct InvalidateSessionRuleTests {
  static func invalidated(_ session: String, cancelTasks: Bool) -> Effect {
    .trace(
      .sessionInvalidated,
      [TraceField("session", .string(session)), TraceField("cancelTasks", .bool(cancelTasks))])
  }

  /// Whether the record's queue holds `didBecomeInvalidWithError` for its attached session.
  static func queuedInvalidation(_ record: DaemonSession) -> Bool {
    record.takePending().contains { event in
      if case .didBecomeInvalid(let session) = event { return session === record.attached }
      return false
    }
  }

  /// (tasks in the session, invalidateAndCancel) -> cancellations asked for.
  @Test(
    "the call is traced; invalidateAndCancel cancels each unfinished task, finishTasksAndInvalidate none",
    arguments: [(0, false), (0, true), (2, false), (2, true)])
  func firstHalf(_ tasks: Int, _ cancelTasks: Bool) {
    let fixture = EngineFixture()
    let record = fixture.session("bg")
    let made = (0..<tasks).map { fixture.task("f\($0)", .download, in: record) }
    let done = fixture.task("done", .download, in: record)
    _ = fixture.engine.tasks[done].machine.end(.finished)
    record.taskEnded()
    var effects = EffectBuffer()
    #expect(
      InvalidateSessionRule.apply(
        record.attached!, cancelTasks: cancelTasks, engine: fixture.engine, into: &effects))
    var expected = [Self.invalidated("bg", cancelTasks: cancelTasks)]
    if cancelTasks {
      expected += made.map {
        .cancelTask(uid: $0.uid, produceResumeData: false, reason: nil, admitting: false)
      }
    }
    #expect(effects.effects == expected)
    #expect(!record.attached!.isInvalidated, "the session is invalidated only after the cancellations")
  }

  @Test("a second call does nothing")
  func secondCall() {
    let fixture = EngineFixture()
    let record = fixture.session("bg")
    fixture.task("f", .download, in: record)
    let session = record.attached!
    var effects = EffectBuffer()
    #expect(InvalidateSessionRule.apply(session, cancelTasks: false, engine: fixture.engine, into: &effects))
    InvalidateSessionRule.tasksCancelled(session, engine: fixture.engine, into: &effects)
    effects.removeAll()
    #expect(!InvalidateSessionRule.apply(session, cancelTasks: true, engine: fixture.engine, into: &effects))
    #expect(effects.isEmpty)
  }

  /// (tasks outstanding once the cancellations are done) -> didBecomeInvalid queued now.
  @Test(
    "with no task outstanding didBecomeInvalidWithError is queued now; otherwise after the last one",
    arguments: [0, 1, 3])
  func secondHalf(_ outstanding: Int) {
    let fixture = EngineFixture()
    let record = fixture.session("bg")
    for index in 0..<outstanding { fixture.task("f\(index)", .download, in: record) }
    let session = record.attached!
    var effects = EffectBuffer()
    InvalidateSessionRule.tasksCancelled(session, engine: fixture.engine, into: &effects)
    #expect(session.isInvalidated)
    #expect(Self.queuedInvalidation(record) == (outstanding == 0))
    #expect(session.awaitsTasksBeforeInvalid == (outstanding > 0))
  }
}
