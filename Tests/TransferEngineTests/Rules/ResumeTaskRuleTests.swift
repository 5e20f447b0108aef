import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// `resume()` alone: (task, session, device, app state) -> effects, with no `Simulation`.
@Suite("Rule: resume a task")
struct ResumeTaskRuleTests {
  static let timeout = SessionConfiguration(identifier: "bg", kind: .background).timeoutIntervalForResource

  static func resumed(_ task: SimURLSessionTask) -> Effect {
    .trace(
      .taskResume,
      [TraceField("task", .string(task.name)), TraceField("session", .string(task.session.identifier))])
  }

  enum Case: String, CustomStringConvertible {
    case fresh, rejectedResumeData, sessionNotConnected, refreshOff, refreshOffDefaultSession
    var description: String { rawValue }
  }

  @Test(
    "a first resume arms the resource timer, then queues, fails or cancels the task",
    arguments: [
      Case.fresh, .rejectedResumeData, .sessionNotConnected, .refreshOff, .refreshOffDefaultSession,
    ])
  func first(_ which: Case) {
    let fixture = EngineFixture(
      backgroundAppRefresh: which != .refreshOff && which != .refreshOffDefaultSession)
    let record = fixture.session("s", kind: which == .refreshOffDefaultSession ? .default : .background)
    let task = fixture.task("f", .download, in: record)
    if which == .rejectedResumeData { fixture.engine.tasks[task].record.resumeDataRejected(.stale) }
    if which == .sessionNotConnected { record.connectionFailed(.backgroundSessionInUseByAnotherProcess) }
    var effects = EffectBuffer()
    ResumeTaskRule.apply(task, engine: fixture.engine, into: &effects)
    let timeout = record.configuration.timeoutIntervalForResource
    var expected: [Effect] = [
      Self.resumed(task), .armResourceTimer(uid: task.uid, after: timeout, firstResume: 1),
    ]
    switch which {
    case .fresh, .refreshOffDefaultSession: expected.append(.enqueue(uid: task.uid))
    case .rejectedResumeData: expected.append(.failUnstarted(uid: task.uid, code: .cannotWriteToFile))
    case .sessionNotConnected:
      expected.append(.failUnstarted(uid: task.uid, code: .backgroundSessionInUseByAnotherProcess))
    case .refreshOff:
      expected.append(
        .cancelTask(
          uid: task.uid, produceResumeData: true, reason: .backgroundUpdatesDisabled, admitting: false))
    }
    #expect(effects.effects == expected)

    // Resumes that balance no suspension do nothing.
    effects.removeAll()
    ResumeTaskRule.apply(task, engine: fixture.engine, into: &effects)
    #expect(effects.isEmpty)
  }

  @Test("the resume that balances the last suspend queues the task with the resource time it had left")
  func afterSuspend() {
    let fixture = EngineFixture()
    let task = fixture.task("f", .download, in: fixture.session("bg"))
    var effects = EffectBuffer()
    ResumeTaskRule.apply(task, engine: fixture.engine, into: &effects)
    let timer = fixture.engine.scheduler.schedule(.resourceTimeout(uid: task.uid), after: .seconds(100))
    fixture.engine.tasks[task].record.resumed(
      sequence: 0, resourceTimer: timer, deadline: .zero + .seconds(100))
    for _ in 0..<2 { _ = fixture.engine.tasks[task].machine.suspend(at: .zero) }
    _ = fixture.engine.tasks[task].record.suspendedByApp(at: .zero)
    effects.removeAll()
    ResumeTaskRule.apply(task, engine: fixture.engine, into: &effects)
    #expect(effects.isEmpty, "the first of two resumes only counts")
    ResumeTaskRule.apply(task, engine: fixture.engine, into: &effects)
    #expect(
      effects.effects == [
        Self.resumed(task), .armResourceTimer(uid: task.uid, after: .seconds(100), firstResume: nil),
        .enqueue(uid: task.uid),
      ])
  }
}
