import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// Making a task alone: (process, session, kind, URL) -> the task and the effects, with no
/// `Simulation`.
@Suite("Rule: make a task")
struct MakeTaskRuleTests {
  static func make(
    _ kind: SimURLSessionTask.Kind, url: String = "https://example.com/f", in record: DaemonSession,
    engine: Engine, into effects: inout EffectBuffer
  ) throws(SimAPIMisuse) -> SimURLSessionTask {
    try MakeTaskRule.apply(
      in: record.attached!, kind: kind, url: url, name: "f", resumeData: nil, method: "GET", engine: engine,
      into: &effects)
  }

  @Test("a process that is not running is refused; a running one is not")
  func refusal() {
    let fixture = EngineFixture()
    let record = fixture.session("bg")
    #expect(
      MakeTaskRule.refusal(in: record.attached!, engine: fixture.engine)?.description
        == "the app created a task in session 'bg' while notRunning")
    _ = fixture.engine.lifecycle.userLaunch()
    #expect(MakeTaskRule.refusal(in: record.attached!, engine: fixture.engine) == nil)
  }

  @Test("an invalidated session or a URL that is not http makes nothing")
  func refused() {
    let fixture = EngineFixture()
    let record = fixture.session("bg")
    var effects = EffectBuffer()
    #expect(throws: SimAPIMisuse.self) {
      try Self.make(.download, url: "ftp://example.com/f", in: record, engine: fixture.engine, into: &effects)
    }
    record.attached!.beginInvalidation(waitsForTasks: false)
    #expect(throws: SimAPIMisuse.self) {
      try Self.make(.download, in: record, engine: fixture.engine, into: &effects)
    }
    #expect(effects.isEmpty)
    #expect(fixture.engine.daemon.taskCount == 0)
  }

  /// (session kind, task kind) -> the lint that says what fails later, if any.
  static let table: [(SessionConfiguration.Kind, SimURLSessionTask.Kind, LintRule?)] = [
    (.background, .download, nil), (.background, .data, .dataTaskInBackgroundSession),
    (.background, .upload(fromFile: false, size: 10), .uploadFromData),
    (.background, .upload(fromFile: true, size: 10), nil), (.default, .data, nil),
    (.default, .upload(fromFile: false, size: 10), nil),
  ]

  @Test("the task is made suspended and traced; a background session's data and data-upload tasks are linted")
  func made() throws {
    for (sessionKind, kind, lint) in Self.table {
      let fixture = EngineFixture()
      let record = fixture.session("s", kind: sessionKind)
      var effects = EffectBuffer()
      let task = try Self.make(kind, in: record, engine: fixture.engine, into: &effects)
      #expect(fixture.engine.daemon.taskCount == 1)
      #expect(record.outstanding == 1)
      #expect(fixture.engine.tasks[task].machine.resume() == .start, "made suspended: one resume starts it")
      guard case .trace(.taskCreated, let fields) = effects.effects.first else {
        Issue.record("expected task.created first, got \(effects.effects)")
        continue
      }
      #expect(fields.first == TraceField("task", .string("f")))
      var lints: [LintRule] = []
      for case .lint(let rule, _, _) in effects.effects { lints.append(rule) }
      #expect(lints == (lint.map { [$0] } ?? []), "\(sessionKind) \(kind)")
    }
  }

  @Test("resume data the app cannot read makes a task of an unknown URL whose data is rejected")
  func resumeDataRejected() {
    let engine = EngineFixture().engine
    for upload in [false, true] {
      let plan = MakeResumedTaskRule.plan(Data("hello".utf8), upload: upload, engine: engine)
      #expect(plan.url == MakeResumedTaskRule.unknownURL)
      #expect(plan.problem == .malformed)
      #expect(plan.contents == nil)
      #expect(plan.kind == (upload ? .upload(fromFile: true, size: 0) : .download))
    }
  }
}
