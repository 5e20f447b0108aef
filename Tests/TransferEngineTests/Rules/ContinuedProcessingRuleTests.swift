import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// Continued-processing requests, the user's cancel and the stall check alone: (state, input) ->
/// (result, effects), with no `Simulation`.
@Suite("Rules: continued-processing tasks submitted, progressing, expiring and ending")
struct ContinuedProcessingRuleTests {
  enum Start: String, CustomStringConvertible {
    case notRunning, foreground, background
    var description: String { rawValue }

    func engine() -> Engine {
      let engine = EngineFixture().engine
      if self != .notRunning { _ = engine.lifecycle.userLaunch() }
      if self == .background { _ = engine.lifecycle.userBackground() }
      return engine
    }
  }

  static let window = Policy.defaults.continuedProcessing.progressWindow

  static func entry(_ identifier: String) -> ContinuedProcessingTasks.Entry {
    .init(identifier: identifier, title: "Export", subtitle: "", launch: { _, _ in })
  }

  /// A foreground engine with `identifiers` submitted in order with `.queue`: the first runs,
  /// the rest wait.
  static func engine(submitting identifiers: String...) -> Engine {
    let engine = Start.foreground.engine()
    var effects = EffectBuffer()
    for identifier in identifiers {
      _ = SubmitContinuedProcessingRule.apply(
        Self.entry(identifier), strategy: .queue, engine: engine, into: &effects)
    }
    return engine
  }

  static func id(_ identifier: String) -> TraceField { TraceField("identifier", .string(identifier)) }

  static func submitted(_ identifier: String, _ strategy: ContinuedProcessingStrategy) -> Effect {
    .trace(
      .continuedSubmit,
      [
        id(identifier), TraceField("title", .string("Export")),
        TraceField("strategy", .string(strategy.rawValue)),
      ])
  }

  static func started(_ identifier: String, generation: UInt32) -> [Effect] {
    [
      .trace(.continuedStart, [id(identifier)]),
      .schedule(.continuedStallCheck(generation: generation), at: .zero + window),
      .callApp(.continuedLaunch(identifier: identifier)),
    ]
  }

  static func refused(_ identifier: String, _ error: ContinuedProcessingError) -> Effect {
    .trace(
      .continuedRefused,
      [
        id(identifier), TraceField("error", .string(error.rawValue)),
        TraceField("code", .int(Int64(error.code))),
      ])
  }

  static func ended(_ identifier: String, _ end: ContinuedProcessingEnd) -> Effect {
    .trace(.continuedEnd, [id(identifier), TraceField("result", .string(end.rawValue))])
  }

  /// (app state, a task "a" runs already, the identifier submitted, strategy) -> (result, effects
  /// after the submission's trace).
  static let submitTable:
    [(Start, Bool, String, ContinuedProcessingStrategy, ContinuedProcessingSubmission)] = [
      (.notRunning, false, "b", .queue, .failed(.unavailable)),
      (.background, false, "b", .queue, .failed(.notPermitted)),
      (.foreground, false, "b", .fail, .running),
      (.foreground, true, "a", .queue, .failed(.tooManyPendingTaskRequests)),
      (.foreground, true, "b", .fail, .failed(.immediateRunIneligible)),
      (.foreground, true, "b", .queue, .queued),
    ]

  @Test(
    "a submission starts, queues or is refused by app state, identifier, room and strategy",
    arguments: submitTable)
  func submit(
    _ start: Start, _ oneRuns: Bool, _ identifier: String, _ strategy: ContinuedProcessingStrategy,
    _ result: ContinuedProcessingSubmission
  ) {
    let engine = start.engine()
    if oneRuns { _ = engine.continued.addRunning(Self.entry("a"), now: .zero) }
    var effects = EffectBuffer()
    let got = SubmitContinuedProcessingRule.apply(
      Self.entry(identifier), strategy: strategy, engine: engine, into: &effects)
    #expect(got == result)
    var expected: [Effect] = start == .notRunning ? [] : [Self.submitted(identifier, strategy)]
    switch result {
    case .failed(.unavailable): break
    case .failed(let error): expected.append(Self.refused(identifier, error))
    case .queued:
      expected.append(.trace(.continuedQueued, [Self.id(identifier), TraceField("position", .int(1))]))
    case .running:
      expected += Self.started(identifier, generation: engine.continued.entry(identifier)!.generation)
    }
    #expect(effects.effects == expected)
  }

  @Test("progress is traced only for a running task")
  func progress() {
    let engine = Start.foreground.engine()
    var effects = EffectBuffer()
    ReportContinuedProgressRule.apply("a", completed: 1, total: 4, engine: engine, into: &effects)
    #expect(effects.isEmpty)
    _ = engine.continued.addRunning(Self.entry("a"), now: .zero)
    ReportContinuedProgressRule.apply("a", completed: 1, total: 4, engine: engine, into: &effects)
    #expect(
      effects.effects == [
        .trace(
          .continuedProgress, [Self.id("a"), TraceField("completed", .int(1)), TraceField("total", .int(4))])
      ])
    #expect(engine.continued.entry("a")?.completed == 1)
  }

  @Test("completing the running task starts the queued one and comes back after its launch handler")
  func completeStartsNext() {
    let engine = Self.engine(submitting: "a", "b")
    var effects = EffectBuffer()
    CompleteContinuedProcessingRule.apply("a", success: true, engine: engine, into: &effects)
    let generation = engine.continued.entry("b")!.generation
    #expect(
      effects.effects
        == [Self.ended("a", .succeeded)] + Self.started("b", generation: generation) + [
          .afterApp(.continuedStarted)
        ])
    effects.removeAll()
    CompleteContinuedProcessingRule.apply("a", success: true, engine: engine, into: &effects)
    #expect(effects.isEmpty, "a task that is not running is ignored")
  }

  /// (the app is in the background and wanted suspending) -> what follows the last task's end.
  @Test("the last task's end suspends an app whose suspension it held", arguments: [false, true])
  func endSuspends(_ held: Bool) {
    let engine = Start.foreground.engine()
    var effects = EffectBuffer()
    _ = SubmitContinuedProcessingRule.apply(Self.entry("a"), strategy: .queue, engine: engine, into: &effects)
    if held {
      _ = engine.lifecycle.userBackground()
      _ = engine.continued.maySuspend()
    }
    effects.removeAll()
    CompleteContinuedProcessingRule.apply("a", success: false, engine: engine, into: &effects)
    #expect(effects.effects == [Self.ended("a", .failed)] + (held ? [.systemSuspend] : []))
    #expect(!engine.continued.suspensionDeferred)
  }

  /// (the task has an expiration handler) -> the user's cancel of a running task.
  @Test(
    "the user's cancel expires a running task; its handler runs before it ends", arguments: [false, true])
  func cancelRunning(_ hasHandler: Bool) {
    let engine = Start.foreground.engine()
    var effects = EffectBuffer()
    _ = SubmitContinuedProcessingRule.apply(Self.entry("a"), strategy: .queue, engine: engine, into: &effects)
    if hasHandler { engine.continued.setExpiration("a") { _ in } }
    effects.removeAll()
    CancelContinuedProcessingRule.apply("a", engine: engine, into: &effects)
    let expire = Effect.trace(.continuedExpire, [Self.id("a"), TraceField("reason", .string("user"))])
    var rest: [Effect]
    if hasHandler {
      #expect(
        effects.effects == [
          expire, .callApp(.continuedExpiration(identifier: "a")),
          .afterApp(.continuedExpired("a", .cancelledByUser)),
        ])
      effects.removeAll()
      engine.continuedExpirationReturned("a", ending: .cancelledByUser, into: &effects)
      rest = effects.effects
    } else {
      // Without a handler there is nothing to wait for: the task ends at once.
      #expect(effects.effects.first == expire)
      rest = Array(effects.effects.dropFirst())
    }
    guard case .lint(.continuedTaskNeverCompleted, _, []) = rest.first else {
      Issue.record("expected a continuedTaskNeverCompleted lint, got \(rest)")
      return
    }
    #expect(rest.dropFirst().elementsEqual([Self.ended("a", .cancelledByUser)]))
    #expect(engine.continued.running.isEmpty)
  }

  @Test("the user's cancel of a queued request removes it at once")
  func cancelQueued() {
    let engine = Self.engine(submitting: "a", "b")
    var effects = EffectBuffer()
    CancelContinuedProcessingRule.apply("b", engine: engine, into: &effects)
    // "a" still runs: nothing starts in its place.
    #expect(effects.effects == [Self.ended("b", .cancelledByUser)])
    #expect(engine.continued.queued.isEmpty)
  }

  /// (completed, total) reported before the window ran out -> the lint of the expiry.
  @Test(
    "a stall check expires a task without progress, naming the forgotten setTaskCompleted when all units are done",
    arguments: [
      (Int64(0), Int64(0), LintRule.continuedTaskExpired), (2, 4, .continuedTaskExpired),
      (4, 4, .continuedTaskNeverCompleted),
    ])
  func stall(_ completed: Int64, _ total: Int64, _ rule: LintRule) {
    let engine = Start.foreground.engine()
    var effects = EffectBuffer()
    _ = SubmitContinuedProcessingRule.apply(Self.entry("a"), strategy: .queue, engine: engine, into: &effects)
    let generation = engine.continued.entry("a")!.generation
    if total > 0 { _ = engine.continued.report("a", completed: completed, total: total, now: .zero) }
    effects.removeAll()
    ContinuedStallCheckRule.apply(generation: generation &+ 1, engine: engine, into: &effects)
    #expect(effects.isEmpty, "a stale check does nothing")
    engine.scheduler.advance(to: .zero + Self.window)
    ContinuedStallCheckRule.apply(generation: generation, engine: engine, into: &effects)
    guard case .lint(let linted, _, []) = effects.effects.first else {
      Issue.record("expected a lint, got \(effects.effects)")
      return
    }
    #expect(linted == rule)
    // Without an expiration handler the task ends at once, never completed by the app.
    let rest = Array(effects.effects.dropFirst())
    #expect(
      rest.first == .trace(.continuedExpire, [Self.id("a"), TraceField("reason", .string("noProgress"))]))
    guard rest.count == 3, case .lint(.continuedTaskNeverCompleted, _, []) = rest[1] else {
      Issue.record("expected the expiry, a continuedTaskNeverCompleted lint and the end, got \(rest)")
      return
    }
    #expect(rest.last == Self.ended("a", .expired))
  }

  @Test(
    "a process that ends takes its tasks: app switcher after a force quit, processEnded otherwise",
    arguments: [false, true])
  func drop(_ forceQuit: Bool) {
    let engine = Self.engine(submitting: "a", "b")
    var effects = EffectBuffer()
    engine.dropContinuedProcessing(forceQuit: forceQuit, into: &effects)
    let end: ContinuedProcessingEnd = forceQuit ? .cancelledByAppSwitcher : .processEnded
    #expect(effects.effects == [Self.ended("a", end), Self.ended("b", end)])
    #expect(engine.continued.running.isEmpty && engine.continued.queued.isEmpty)
  }
}
