import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// `sim.system`: the system's decisions taken on a test's request, each against the same
/// decision taken by the engine on its own.
@Suite("System decisions on request")
struct SystemDecisionsTests {
  static let file = [Fixture.resource("https://example.com/a", size: 1000)]

  @Test("endRateLimiterDelay admits a task the rate limiter held, traced as a reset")
  func endRateLimiterDelay() throws {
    let app = RateLimiterTests.chainApp()
    let sim = Fixture.simulation(
      power: RateLimiterTests.charging, resources: RateLimiterTests.episodes, app: app)
    try app.sessions["S"]!.downloadTask(with: "https://example.com/ep1", name: "ep1").resume()
    sim.backgroundApp()
    // ep1 finishes in a few seconds; ep2, made in that wake, waits 60 s for the rate limiter.
    sim.run(until: SimTime(.seconds(40)))
    let held = try #require(Fixture.events(sim, "task.deferred").first { $0["reason"] == "rateLimiter" })
    #expect(Fixture.time(sim, "task.started", task: "ep2") == nil)
    sim.system.endRateLimiterDelay()
    #expect(Fixture.events(sim, "ratelimiter.reset").last?["reason"] == "test")
    sim.run(until: SimTime(.seconds(41)))
    let started = try #require(Fixture.time(sim, "task.started", task: "ep2"))
    #expect(started == SimTime(.seconds(40)))
    #expect(held.time < started)
  }

  @Test("satisfyDiscretionaryConditions puts the device on Wi-Fi and charging; the waiting task starts")
  func satisfyDiscretionaryConditions() throws {
    var configuration = SessionConfiguration.background(withIdentifier: "S")
    configuration.isDiscretionary = true
    let app = TestApp([configuration])
    let sim = Fixture.simulation(
      network: [Fixture.network(.cellular)], power: [Step(at: .zero, PowerState(charging: false))],
      resources: Self.file, app: app)
    try app.sessions["S"]!.downloadTask(with: "https://example.com/a", name: "a").resume()
    sim.run(until: SimTime(.hours(1)))
    // A small transfer waits for Wi-Fi only; satisfying the conditions also covers large ones.
    #expect(Fixture.events(sim, "task.deferred").first?["missing"] == "wifi")
    #expect(Fixture.time(sim, "task.started", task: "a") == nil)
    sim.system.satisfyDiscretionaryConditions()
    sim.run(until: SimTime(.hours(2)))
    #expect(Fixture.time(sim, "task.started", task: "a") == SimTime(.hours(1)))
    #expect(sim.network.interface == .wifi)
    #expect(sim.power.charging)
  }

  @Test("terminateApp(reason:) ends the process with that reason; background transfers go on")
  func terminateWithReason() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(resources: Self.file, app: app)
    sim.backgroundApp()
    sim.system.terminateApp(reason: .watchdog)
    #expect(sim.appState == .notRunning)
    #expect(Fixture.events(sim, "app.terminate").map { $0["reason"] } == ["watchdog"])
    sim.system.terminateApp()
    #expect(Fixture.events(sim, "app.terminate").count == 1)
  }

  @Test(
    "expireBackgroundTime runs the expiration handlers now; without a background task it suspends the app")
  func expireBackgroundTime() {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(resources: Self.file, app: app)
    let context = AppContext(simulation: sim)
    var id = BackgroundTaskIdentifier.invalid
    id = context.beginBackgroundTask(name: "save") { app in app.endBackgroundTask(id) }
    sim.backgroundApp()
    sim.run(until: SimTime(.seconds(5)))
    sim.system.expireBackgroundTime()
    sim.run(until: SimTime(.seconds(5)))
    #expect(Fixture.events(sim, "app.backgroundTaskExpired").map(\.time) == [SimTime(.seconds(5))])
    #expect(Fixture.events(sim, "app.suspend").map(\.time) == [SimTime(.seconds(5))])

    let plain = Fixture.simulation(resources: Self.file, app: TestApp([.background(withIdentifier: "S")]))
    plain.backgroundApp()
    plain.run(until: SimTime(.seconds(2)))
    plain.system.expireBackgroundTime()
    #expect(plain.appState == .suspended)
    #expect(Fixture.events(plain, "app.suspend").map(\.time) == [SimTime(.seconds(2))])
    // In the foreground nothing happens.
    plain.launchApp()
    plain.system.expireBackgroundTime()
    #expect(plain.appState == .foreground)
  }
}
