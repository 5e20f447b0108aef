import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// `suspend()` alone: (task state, connections) -> effects, with no `Simulation`.
@Suite("Rule: suspend a task")
struct SuspendTaskRuleTests {
  static func suspended(_ task: SimURLSessionTask, bytes: Int64 = 0) -> Effect {
    .trace(
      .taskSuspend,
      [
        TraceField("task", .string(task.name)), TraceField("session", .string(task.session.identifier)),
        TraceField("bytes", .int(bytes)),
      ])
  }

  @Test("on a task not resumed, or already suspended, the call only counts")
  func counts() {
    let fixture = EngineFixture()
    let task = fixture.task("f", .download, in: fixture.session("bg"))
    var effects = EffectBuffer()
    SuspendTaskRule.apply(task, engine: fixture.engine, into: &effects)
    #expect(effects.isEmpty)
    // Created (1) and suspended once more (2): two resumes start it.
    #expect(fixture.engine.tasks[task].machine.resume() == .none)
    #expect(fixture.engine.tasks[task].machine.resume() == .start)
    SuspendTaskRule.apply(task, engine: fixture.engine, into: &effects)
    #expect(effects.effects == [Self.suspended(task), .rescheduleLinks])
    effects.removeAll()
    SuspendTaskRule.apply(task, engine: fixture.engine, into: &effects)
    #expect(effects.isEmpty, "a nested suspend only counts")
  }

  @Test("a waiting task stops: its timers are disarmed and the call traced with the bytes moved")
  func waiting() {
    let fixture = EngineFixture()
    let task = fixture.task("f", .download, in: fixture.session("bg"))
    _ = fixture.engine.tasks[task].machine.resume()
    let timer = fixture.engine.scheduler.schedule(.resourceTimeout(uid: task.uid), after: .seconds(100))
    fixture.engine.tasks[task].record.resumed(
      sequence: 0, resourceTimer: timer, deadline: .zero + .seconds(100))
    var effects = EffectBuffer()
    _ = fixture.engine.daemon.insert(task)
    let key = fixture.engine.daemon.ensureQueue(for: task)
    SuspendTaskRule.apply(task, engine: fixture.engine, into: &effects)
    #expect(effects.effects == [.cancelEvent(timer), Self.suspended(task), .rescheduleLinks])
    #expect(!fixture.engine.daemon.hasWaiting(key), "it left its queue")
    #expect(task.record.resourceTimeLeft == .seconds(100))
    #expect(fixture.engine.tasks[task].machine.resume() == .continue)
  }

  @Test("a running task's freed connection starts the next waiting task")
  func running() {
    let engine = AdmissionPassRuleTests.engine(limit: 1)
    let t = AdmissionPassRuleTests.tasks(2, in: .background(withIdentifier: "bg"), engine: engine)
    var effects = EffectBuffer()
    for task in t {
      AdmissionPassRule.enqueue(task, engine: engine, into: &effects)
      AdmissionPassRuleTests.admit(effects.effects, engine: engine)
      effects.removeAll()
    }
    #expect(t[0].machine.isActive && t[1].machine.isWaiting)
    SuspendTaskRule.apply(t[0], engine: engine, into: &effects)
    #expect(effects.effects.first == Self.suspended(t[0]))
    #expect(effects.effects.contains(.beginAttempt(uid: t[1].uid)))
    #expect(effects.effects.last == .rescheduleLinks)
    #expect(!t[0].machine.isActive)
  }
}
