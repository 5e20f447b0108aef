import SimKernel
import Testing

@testable import TransferEngine

/// `beginBackgroundTask`/`endBackgroundTask` through the engine (behavior.md, "Background task
/// assertions").
@Suite("Background task assertions")
struct BackgroundTaskTests {
  static let book = [Fixture.resource("https://example.com/book", size: 1_000_000)]

  static func lifecycle(_ sim: Simulation) -> [String] {
    LifecycleTests.lines(
      sim,
      [
        "app.background", "app.suspend", "app.terminate", "app.beginBackgroundTask", "app.endBackgroundTask",
        "app.backgroundTaskExpired", "lint",
      ]
    )
  }

  /// The time of the first event of `kind`.
  static func time(_ sim: Simulation, _ kind: String) -> SimTime? {
    sim.trace.events.first { $0.kind == kind }?.time
  }

  @Test("without an assertion the app is suspended backgroundRunTime after it leaves")
  func noAssertion() {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(resources: Self.book, app: app)
    sim.backgroundApp()
    sim.run(until: SimTime(.minutes(5)))
    #expect(Self.time(sim, "app.suspend") == SimTime(.seconds(5)))
  }

  @Test("an assertion ended at 12 s keeps the app running until then, then it is suspended")
  func endedAssertion() {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(resources: Self.book, app: app)
    let context = AppContext(simulation: sim)
    let id = context.beginBackgroundTask(name: "save") { _ in }
    sim.backgroundApp()
    sim.schedule(at: SimTime(.seconds(12))) { sim in AppContext(simulation: sim).endBackgroundTask(id) }
    sim.run(until: SimTime(.minutes(5)))
    #expect(Self.time(sim, "app.suspend") == SimTime(.seconds(12)))
    #expect(sim.openBackgroundTasks.isEmpty)
  }

  @Test("at the limit the expiration handler runs; ending there suspends the app at the limit")
  func expiryHandlerEnds() {
    var policy = Policy.defaults
    policy.backgroundTaskLimit = .seconds(20)
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(resources: Self.book, policy: policy, app: app)
    let context = AppContext(simulation: sim)
    var id = BackgroundTaskIdentifier.invalid
    id = context.beginBackgroundTask(name: "save") { app in app.endBackgroundTask(id) }
    sim.backgroundApp()
    sim.run(until: SimTime(.minutes(5)))
    #expect(
      Self.lifecycle(sim) == [
        "app.beginBackgroundTask", "app.background", "app.backgroundTaskExpired", "app.endBackgroundTask",
        "app.suspend",
      ])
    #expect(Self.time(sim, "app.suspend") == SimTime(.seconds(20)))
    #expect(sim.appState == .suspended)
  }

  @Test("an assertion not ended by its expiration handler gets the app killed by the watchdog, with a lint")
  func watchdog() {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(resources: Self.book, app: app)
    _ = AppContext(simulation: sim).beginBackgroundTask(name: "leak") { _ in }
    sim.backgroundApp()
    sim.run(until: SimTime(.minutes(5)))
    #expect(
      Self.lifecycle(sim) == [
        "app.beginBackgroundTask", "app.background", "app.backgroundTaskExpired",
        "lint", "app.terminate reason=watchdog",
      ])
    #expect(Self.time(sim, "app.terminate") == SimTime(.seconds(30)))
    #expect(
      sim.trace.events.contains {
        $0.kind == "lint" && $0.fields.first?.value == .string("backgroundTaskNotEnded")
      })
    #expect(sim.appState == .notRunning)
  }

  @Test("the time is counted from leaving the foreground, and coming back stops it")
  func foregroundStopsBudget() {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(resources: Self.book, app: app)
    _ = AppContext(simulation: sim).beginBackgroundTask(name: "save") { _ in }
    sim.schedule(at: SimTime(.minutes(2))) { $0.backgroundApp() }
    sim.schedule(at: SimTime(.minutes(2) + .seconds(10))) { $0.launchApp() }
    sim.schedule(at: SimTime(.minutes(3))) { $0.backgroundApp() }
    sim.run(until: SimTime(.minutes(10)))
    // Killed 30 s after the second backgrounding, not the first.
    #expect(Self.time(sim, "app.terminate") == SimTime(.minutes(3) + .seconds(30)))
  }

  @Test("ending the last assertion inside a delegate callback suspends the app as the callback returns")
  func endedInCallback() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(
      resources: [Fixture.resource("https://example.com/album", size: 5_000_000)] + Self.book, app: app)
    let context = AppContext(simulation: sim)
    let id = context.beginBackgroundTask(name: "sync") { _ in }
    app.onFinishDownloading = { task, context in
      guard task.name == "album" else { return }
      context.endBackgroundTask(id)
      // The rest of the callback runs in a running app: the suspension waits for its return.
      #expect(context.simulation.appState == .background)
      _ = try? app.sessions["S"]!.downloadTask(with: "https://example.com/book", name: "book")
    }
    try app.sessions["S"]!.downloadTask(with: "https://example.com/album", name: "album").resume()
    sim.backgroundApp()
    sim.run(until: SimTime(.minutes(5)))
    // The system wanted to suspend at 5 s; the assertion held the app until the download ended.
    let order = sim.trace.events.map(\.kind).filter {
      ["app.endBackgroundTask", "task.created", "app.suspend"].contains($0)
    }
    #expect(order.suffix(3) == ["app.endBackgroundTask", "task.created", "app.suspend"])
    let ended = try #require(Self.time(sim, "app.endBackgroundTask"))
    #expect(ended > SimTime(.seconds(5)))
    #expect(sim.trace.events.last { $0.kind == "app.suspend" }?.time == ended)
    #expect(sim.appState == .suspended)
  }

  @Test("a background wake starts a fresh budget for assertions begun while woken")
  func wakeBudget() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    app.callsHandler = .never
    let sim = Fixture.simulation(resources: Self.book, app: app)
    app.onLaunch = { context, reason in
      if reason == .background { _ = context.beginBackgroundTask(name: "process") { _ in } }
    }
    try app.sessions["S"]!.downloadTask(with: "https://example.com/book", name: "book").resume()
    sim.run(until: SimTime(.seconds(1)))
    sim.terminateApp()
    sim.run(until: SimTime(.hours(1)))
    let launch = try #require(
      sim.trace.events.first { $0.kind == "app.launch" && $0.fields.first?.value == .string("background") })
    // The completion-handler timeout (30 s) would suspend; the assertion holds, then expires.
    #expect(Self.time(sim, "app.backgroundTaskExpired") == launch.time + .seconds(30))
    #expect(sim.trace.events.last { $0.kind == "app.terminate" }?.time == launch.time + .seconds(30))
  }
}
