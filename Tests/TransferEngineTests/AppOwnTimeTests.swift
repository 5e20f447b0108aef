import SimKernel
import Testing

@testable import TransferEngine

/// The app's own time through the engine (behavior.md, "The app's own time"): a callback that
/// spends time delays the next ones, and one still running when a wake's time is up gets the
/// app killed by the watchdog.
@Suite("The app's own time")
struct AppOwnTimeTests {
  static let files = (1...3).map { Fixture.resource("https://example.com/f\($0)", size: 3_000_000) }

  /// Three downloads finish while the app is suspended; each `didFinishDownloadingTo` spends
  /// `perFile` of the app's time during the wake.
  static func wake(perFile: SimDuration, policy: Policy = .defaults) throws -> Simulation {
    let app = TestApp([.background(withIdentifier: "S")])
    app.onFinishDownloading = { _, context in context.spend(perFile) }
    let sim = Fixture.simulation(resources: files, policy: policy, app: app)
    for i in 1...3 {
      try app.sessions["S"]!.downloadTask(with: "https://example.com/f\(i)", name: "f\(i)").resume()
    }
    sim.backgroundApp()
    sim.run(until: SimTime(.hours(1)))
    return sim
  }

  static func wakeTime(_ sim: Simulation) -> SimTime {
    sim.trace.events.first { $0.kind == "delegate.handleEvents" }!.time
  }

  @Test("work that fits the wake delays the next callbacks by its time, then the app is suspended")
  func fits() throws {
    let sim = try Self.wake(perFile: .seconds(8))
    let woke = Self.wakeTime(sim)
    let completions = Fixture.events(sim, "delegate.didComplete").map { $0.time - woke }
    #expect(completions == [.seconds(8), .seconds(16), .seconds(24)])
    #expect(Fixture.events(sim, "lint").isEmpty)
    #expect(Fixture.events(sim, "app.terminate").isEmpty)
    #expect(sim.trace.events.last { $0.kind == "app.suspend" }!.time - woke == .seconds(24))
    #expect(Fixture.events(sim, "app.busy").count == 3)
  }

  @Test("work past the wake's time: the watchdog kills the app at the timeout, naming the callback")
  func overruns() throws {
    let sim = try Self.wake(perFile: .seconds(12))
    let woke = Self.wakeTime(sim)
    let lints = Fixture.events(sim, "lint")
    #expect(lints.map { $0["rule"]?.description } == ["slowCallback"])
    #expect(lints.first?["task"] == .string("f3"))
    let message = lints.first?["message"]?.description ?? ""
    #expect(message.contains("didFinishDownloadingTo for 'f3' takes 12s"))
    #expect(message.contains("gives the app 30s"))
    #expect(message.contains("6s were left"))
    let kill = try #require(Fixture.events(sim, "app.terminate").first)
    #expect(kill["reason"] == .string("watchdog"))
    #expect(kill.time - woke == .seconds(30))
    // f3's didComplete was not delivered: it waits for the next launch.
    #expect(Fixture.events(sim, "delegate.didComplete").map { $0["task"]?.description } == ["f1", "f2"])
    #expect(Fixture.events(sim, "lint").allSatisfy { $0["rule"] != .string("completionHandlerNeverCalled") })
  }

  @Test("the events after the slow callback are delivered at the next launch")
  func redeliveredAtLaunch() throws {
    let sim = try Self.wake(perFile: .seconds(12))
    sim.launchApp()
    sim.run(until: SimTime(.hours(2)))
    #expect(
      Fixture.events(sim, "delegate.didComplete").map { $0["task"]?.description } == ["f1", "f2", "f3"])
  }

  @Test("the wake's time is completionHandlerTimeout: a longer one lets the same work finish")
  func followsThePolicy() throws {
    var policy = Policy.defaults
    policy.completionHandlerTimeout = .seconds(40)
    let sim = try Self.wake(perFile: .seconds(12), policy: policy)
    #expect(Fixture.events(sim, "lint").isEmpty)
    #expect(Fixture.events(sim, "delegate.didComplete").count == 3)
  }

  @Test("in the foreground spent time only delays the next callbacks: no watchdog")
  func foreground() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    app.onFinishDownloading = { _, context in context.spend(.minutes(2)) }
    let sim = Fixture.simulation(resources: Self.files, app: app)
    try app.sessions["S"]!.downloadTask(with: "https://example.com/f1", name: "f1").resume()
    sim.run(until: SimTime(.hours(1)))
    let finished = try #require(Fixture.events(sim, "delegate.didFinishDownloading").first).time
    let completed = try #require(Fixture.events(sim, "delegate.didComplete").first).time
    #expect(completed - finished == .minutes(2))
    #expect(Fixture.events(sim, "app.terminate").isEmpty)
  }

  @Test("a slow callback under an open assertion is killed when the assertions' time runs out")
  func underAssertion() throws {
    var policy = Policy.defaults
    policy.backgroundTaskLimit = .seconds(20)
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(resources: Self.files, policy: policy, app: app)
    var ended = false
    _ = AppContext(simulation: sim).beginBackgroundTask(name: "save") { _ in ended = true }
    sim.backgroundApp()
    sim.schedule(at: SimTime(.seconds(1))) { sim in AppContext(simulation: sim).spend(.minutes(1)) }
    sim.run(until: SimTime(.hours(1)))
    // The busy main thread cannot run the expiration handler.
    #expect(!ended)
    let kill = try #require(Fixture.events(sim, "app.terminate").first)
    #expect(kill.time == SimTime(.seconds(20)))
    #expect(Fixture.events(sim, "lint").first?["rule"] == .string("slowCallback"))
  }

  @Test("zero, negative, or a call while the app is not running spends nothing")
  func nothingSpent() {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(resources: Self.files, app: app)
    AppContext(simulation: sim).spend(.zero)
    AppContext(simulation: sim).spend(.seconds(-5))
    sim.terminateApp()
    sim.appSpends(.seconds(5))
    #expect(Fixture.events(sim, "app.busy").isEmpty)
  }
}
