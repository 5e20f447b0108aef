import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// Beginning and ending background-task assertions and the expiry of their time, alone:
/// (app state, assertions, input) -> effects, with no `Simulation`.
@Suite("Rules: background-task assertions begin, end and expire")
struct BackgroundTaskRuleTests {
  enum Start: String, CustomStringConvertible {
    case notRunning, foreground, background, suspended
    var description: String { rawValue }

    /// An engine with the app in this state; a background stretch's time starts at 0.
    func engine() -> Engine {
      let engine = EngineFixture().engine
      guard self != .notRunning else { return engine }
      _ = engine.lifecycle.userLaunch()
      guard self != .foreground else { return engine }
      _ = engine.lifecycle.userBackground()
      var effects = EffectBuffer()
      engine.startBackgroundTime(into: &effects)
      if self == .suspended { _ = engine.lifecycle.suspend() }
      return engine
    }
  }

  static let limit = Policy.defaults.backgroundTaskLimit
  static func named(_ name: String) -> [TraceField] { [TraceField("name", .string(name))] }

  /// (app state) -> (an assertion is given, an expiry is armed).
  static let beginTable: [(Start, Bool, Bool)] = [
    (.notRunning, false, false), (.foreground, true, false), (.background, true, true),
    (.suspended, false, false),
  ]

  @Test("a running app gets an assertion; in the background its expiry is armed", arguments: beginTable)
  func begin(_ start: Start, _ given: Bool, _ armed: Bool) {
    let engine = start.engine()
    var effects = EffectBuffer()
    let identifier = BeginBackgroundTaskRule.apply(name: "upload", engine: engine, into: &effects)
    #expect((identifier != nil) == given)
    var expected: [Effect] = given ? [.trace(.appBeginBackgroundTask, Self.named("upload"))] : []
    if armed {
      expected.append(
        .schedule(.backgroundTimeExpired(generation: engine.assertions.generation), at: .zero + Self.limit))
    }
    #expect(effects.effects == expected)
    #expect(engine.assertions.open.map(\.name) == (given ? ["upload"] : []))

    // A second assertion shares the armed expiry.
    effects.removeAll()
    if given {
      _ = BeginBackgroundTaskRule.apply(name: "save", engine: engine, into: &effects)
      #expect(effects.effects == [.trace(.appBeginBackgroundTask, Self.named("save"))])
    }
  }

  @Test("ending an assertion traces it once; ending the last one a suspension waits for suspends")
  func end() {
    let engine = Start.background.engine()
    var effects = EffectBuffer()
    let upload = BeginBackgroundTaskRule.apply(name: "upload", engine: engine, into: &effects)!
    let save = BeginBackgroundTaskRule.apply(name: "save", engine: engine, into: &effects)!
    let suspends = engine.assertions.maySuspend()
    #expect(!suspends)
    effects.removeAll()

    #expect(EndBackgroundTaskRule.apply(upload, engine: engine, into: &effects) == upload)
    #expect(effects.effects == [.trace(.appEndBackgroundTask, Self.named("upload"))])
    effects.removeAll()
    #expect(EndBackgroundTaskRule.apply(upload, engine: engine, into: &effects) == nil)
    #expect(effects.isEmpty)
    #expect(EndBackgroundTaskRule.apply(save, engine: engine, into: &effects) == save)
    #expect(effects.effects == [.trace(.appEndBackgroundTask, Self.named("save")), .systemSuspend])
  }

  /// Begins `names` in the background and fires their expiry; returns the engine and the effects.
  static func expire(_ names: [String], busy: Bool = false) -> (Engine, EffectBuffer, [Int]) {
    let engine = Start.background.engine()
    var effects = EffectBuffer()
    let identifiers = names.map { BeginBackgroundTaskRule.apply(name: $0, engine: engine, into: &effects)! }
    if busy {
      engine.appBusy.current = .init(name: "didFinishDownloadingTo", task: "f")
      _ = engine.appBusy.spend(.minutes(10), now: engine.now)
    }
    let generation = engine.assertions.generation
    effects.removeAll()
    BackgroundTimeExpiredRule.apply(generation: generation + 1, engine: engine, into: &effects)
    #expect(effects.isEmpty, "a stale expiry does nothing")
    BackgroundTimeExpiredRule.apply(generation: generation, engine: engine, into: &effects)
    return (engine, effects, identifiers)
  }

  @Test("at the expiry the first handler runs, and the rule waits for it")
  func expiry() {
    let (engine, effects, identifiers) = Self.expire(["upload", "save"])
    let expiring = engine.assertions.open
    #expect(
      effects.effects == [
        .trace(.appBackgroundTaskExpired, Self.named("upload")),
        .callApp(.assertionExpiration(identifier: identifiers[0])),
        .afterApp(.backgroundTimeExpired(expiring, next: 1)),
      ])
  }

  @Test("an expiry that finds every assertion already ended does nothing")
  func expiryAfterEveryAssertionEnded() {
    let engine = Start.background.engine()
    var effects = EffectBuffer()
    let upload = BeginBackgroundTaskRule.apply(name: "upload", engine: engine, into: &effects)!
    _ = EndBackgroundTaskRule.apply(upload, engine: engine, into: &effects)
    effects.removeAll()
    BackgroundTimeExpiredRule.apply(generation: engine.assertions.generation, engine: engine, into: &effects)
    #expect(effects.isEmpty)
  }

  @Test("an app busy in a slow callback at the expiry is killed without running the handlers")
  func busy() {
    let (_, effects, _) = Self.expire(["upload"], busy: true)
    guard case .lint(.slowCallback, _, let fields) = effects.effects.first else {
      Issue.record("expected a slowCallback lint, got \(effects.effects)")
      return
    }
    #expect(fields == [TraceField("task", .string("f"))])
    #expect(effects.effects.dropFirst() == [.terminate(reason: "watchdog")])
  }

  /// (assertions the handlers ended, the app left the background) -> what follows the last handler.
  @Test(
    "after the handlers, one still open gets the app killed; none open, or the app gone, ends it",
    arguments: [(false, false), (true, false), (false, true)])
  func afterHandlers(_ handlersEnded: Bool, _ appLeft: Bool) {
    let (engine, _, identifiers) = Self.expire(["upload", "save"])
    let expiring = engine.assertions.open
    var effects = EffectBuffer()
    // The first handler returned: the second runs next.
    BackgroundTimeExpiredRule.afterHandler(expiring, next: 1, engine: engine, into: &effects)
    #expect(
      effects.effects == [
        .trace(.appBackgroundTaskExpired, Self.named("save")),
        .callApp(.assertionExpiration(identifier: identifiers[1])),
        .afterApp(.backgroundTimeExpired(expiring, next: 2)),
      ])
    effects.removeAll()
    if handlersEnded {
      for identifier in identifiers {
        _ = EndBackgroundTaskRule.apply(identifier, engine: engine, into: &effects)
      }
      effects.removeAll()
    }
    if appLeft { _ = engine.lifecycle.terminate(byUser: false) }
    BackgroundTimeExpiredRule.afterHandler(expiring, next: 2, engine: engine, into: &effects)
    if handlersEnded || appLeft {
      #expect(effects.isEmpty)
    } else {
      #expect(effects.effects.count == 2)
      guard case .lint(.backgroundTaskNotEnded, let message, []) = effects.effects.first else {
        Issue.record("expected a backgroundTaskNotEnded lint, got \(effects.effects)")
        return
      }
      #expect(message.hasPrefix("background task 'upload' was still open"))
      #expect(effects.effects.last == .terminate(reason: "watchdog"))
    }
  }
}
