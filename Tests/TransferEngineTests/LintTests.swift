import SimKernel
import Testing

@testable import TransferEngine

@Suite("Lints: each fires on its buggy app and not on the correct one")
struct LintTests {
  enum Bug: String, CaseIterable, CustomStringConvertible {
    case none, neverCallsHandler, callsHandlerImmediately, doesNotRecreateSession, doesNotMoveFile,
      uploadsFromData, makesSessionTwice
    var description: String { rawValue }
  }

  /// Runs one download through a termination and relaunch with the app carrying `bug`.
  static func run(_ bug: Bug) throws -> Simulation {
    let app = TestApp([.background(withIdentifier: "S")])
    switch bug {
    case .neverCallsHandler: app.callsHandler = .never
    case .callsHandlerImmediately: app.callsHandler = .immediately
    case .doesNotMoveFile: app.movesFiles = false
    default: break
    }
    let sim = Fixture.simulation(
      resources: [
        Fixture.resource("https://example.com/a", size: 10_000_000),
        Fixture.resource("https://example.com/up", size: 0, responseBody: 100),
      ], app: app)
    if bug == .doesNotRecreateSession { app.recreatesSessions = false }
    if bug == .makesSessionTwice { app.makeSessions(AppContext(simulation: sim)) }
    if bug == .uploadsFromData {
      try app.sessions["S"]!.uploadTask(with: "https://example.com/up", fromDataOfSize: 10_000_000, name: "u")
        .resume()
    }
    try app.sessions["S"]!.downloadTask(with: "https://example.com/a", name: "a").resume()
    sim.backgroundApp()
    sim.run(until: SimTime(.seconds(10)))
    sim.terminateApp()
    sim.run(until: SimTime(.hours(1)))
    return sim
  }

  static let expected: [Bug: [LintRule]] = [
    .none: [],
    .neverCallsHandler: [.completionHandlerNeverCalled],
    .callsHandlerImmediately: [.completionHandlerCalledEarly],
    .doesNotRecreateSession: [.sessionNotRecreated],
    .doesNotMoveFile: [.downloadedFileLost],
    .uploadsFromData: [.uploadFromData],
    .makesSessionTwice: [.duplicateSessionIdentifier],
  ]

  @Test(arguments: Bug.allCases)
  func lintsMatchTheBug(_ bug: Bug) throws {
    let sim = try Self.run(bug)
    let rules = Fixture.events(sim, "lint").compactMap { LintRule(rawValue: $0["rule"]!.description) }
    #expect(rules == Self.expected[bug]!)
    for event in Fixture.events(sim, "lint") {
      #expect(event["message"]?.description.isEmpty == false)
    }
  }

  @Test("an upload from data fails with -997 once the app exits")
  func uploadFromDataFailsOnExit() throws {
    let sim = try Self.run(.uploadsFromData)
    let failed = try #require(Fixture.events(sim, "task.failed").first)
    #expect(failed["task"] == "u")
    #expect(failed["code"] == .int(-997))
  }

  @Test("the handler never called: the app is suspended after completionHandlerTimeout")
  func timeoutSuspends() throws {
    let sim = try Self.run(.neverCallsHandler)
    let launch = try #require(Fixture.events(sim, "app.launch").last)
    let suspend = try #require(Fixture.events(sim, "app.suspend").last)
    #expect(suspend.time == launch.time + .seconds(30))
  }

  @Test("the handler called early: undelivered events wait for the next launch")
  func earlyHandler() throws {
    let sim = try Self.run(.callsHandlerImmediately)
    #expect(Fixture.events(sim, "delegate.didComplete").isEmpty)
    sim.launchApp()
    sim.run(until: SimTime(.hours(2)))
    #expect(Fixture.events(sim, "delegate.didComplete").count == 1)
  }

  /// A background session needs a delegate; a default one may do without (completion handlers).
  @Test("a background session made without a delegate is linted; a default one is not")
  func backgroundSessionWithoutDelegate() throws {
    let app = TestApp([])
    let sim = Fixture.simulation(
      resources: [Fixture.resource("https://example.com/a", size: 1_000)], app: app)
    let context = AppContext(simulation: sim)
    _ = try context.makeSession(configuration: .default(identifier: "D"), delegate: nil)
    _ = try context.makeSession(configuration: .background(withIdentifier: "S"), delegate: app)
    #expect(Fixture.events(sim, "lint").isEmpty)
    _ = try context.makeSession(configuration: .background(withIdentifier: "N"), delegate: nil)
    let lints = Fixture.events(sim, "lint")
    #expect(lints.count == 1)
    #expect(lints.first?["rule"] == "backgroundSessionWithoutDelegate")
    #expect(lints.first?["session"] == "N")
  }
}
