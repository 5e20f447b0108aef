import SimKernel
import Testing

@testable import TransferEngine

@Suite("The rate limiter")
struct RateLimiterTests {
  static let episodes = (1...10).map { Fixture.resource("https://example.com/ep\($0)", size: 10_000_000) }
  static let charging = [Step(at: .zero, PowerState(charging: true))]

  /// An app that starts the next episode from each wake: the anti-pattern of seed 000.
  static func chainApp() -> TestApp {
    let app = TestApp([.background(withIdentifier: "S")])
    var next = 2
    app.onFinishDownloading = { _, _ in
      guard next <= 10 else { return }
      let task = try! app.sessions["S"]!.downloadTask(
        with: "https://example.com/ep\(next)", name: "ep\(next)")
      task.resume()
      next += 1
    }
    return app
  }

  @Test("one task per wake: delays 60 s, 120 s, 240 s, 480 s ... and the oneTaskPerWake lint")
  func chain() throws {
    let app = Self.chainApp()
    let sim = Fixture.simulation(power: Self.charging, resources: Self.episodes, app: app)
    try app.sessions["S"]!.downloadTask(with: "https://example.com/ep1", name: "ep1").resume()
    sim.backgroundApp()
    sim.run(until: SimTime(.days(2)))
    let expected: [SimDuration] = (0..<10).map { .seconds(60 << $0) }
    #expect(sim.rateLimiterDelays == expected)
    let waits = Fixture.events(sim, "task.deferred").filter { $0["reason"] == "rateLimiter" }
    #expect(waits.count == 9)
    #expect(Fixture.events(sim, "lint").map { $0["rule"]!.description } == ["oneTaskPerWake"])
    #expect(Fixture.events(sim, "task.finished").count == 10)
  }

  @Test("the same ten downloads started at once give one wake and finish over an hour sooner")
  func batch() throws {
    let chainApp = Self.chainApp()
    let chain = Fixture.simulation(power: Self.charging, resources: Self.episodes, app: chainApp)
    try chainApp.sessions["S"]!.downloadTask(with: "https://example.com/ep1", name: "ep1").resume()
    chain.backgroundApp()
    chain.run(until: SimTime(.days(2)))

    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(power: Self.charging, resources: Self.episodes, app: app)
    for i in 1...10 {
      try app.sessions["S"]!.downloadTask(with: "https://example.com/ep\(i)", name: "ep\(i)").resume()
    }
    sim.backgroundApp()
    sim.run(until: SimTime(.days(2)))
    #expect(sim.rateLimiterDelays.count == 1)
    #expect(Fixture.events(sim, "lint").isEmpty)
    let batchDone = try #require(Fixture.events(sim, "task.finished").last?.time)
    let chainDone = try #require(Fixture.events(chain, "task.finished").last?.time)
    #expect(chainDone - batchDone > .hours(1))
  }

  @Test("bringing the app to the foreground resets the delay")
  func foregroundReset() throws {
    let app = Self.chainApp()
    let sim = Fixture.simulation(power: Self.charging, resources: Self.episodes, app: app)
    try app.sessions["S"]!.downloadTask(with: "https://example.com/ep1", name: "ep1").resume()
    sim.backgroundApp()
    sim.run(until: SimTime(.minutes(3)))
    #expect(sim.rateLimiterDelay == .seconds(120))
    sim.launchApp()
    #expect(sim.rateLimiterDelay == .zero)
    let reset = try #require(Fixture.events(sim, "ratelimiter.reset").first)
    #expect(reset["reason"] == "foreground")
  }

  @Test("the delay resets when no wake follows within idleResetFactor x delay")
  func idleReset() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(power: Self.charging, resources: Self.episodes, app: app)
    try app.sessions["S"]!.downloadTask(with: "https://example.com/ep1", name: "ep1").resume()
    sim.backgroundApp()
    sim.run(until: SimTime(.hours(1)))
    let wake = try #require(Fixture.events(sim, "ratelimiter.wake").first)
    let reset = try #require(Fixture.events(sim, "ratelimiter.reset").first)
    #expect(reset["reason"] == "idle")
    #expect(reset.time == wake.time + .seconds(120))
    #expect(sim.rateLimiterDelay == .zero)
  }

  @Test("growth, cap and first delay come from the policy")
  func knobs() throws {
    var policy = Policy.defaults
    policy.rateLimiter = RateLimiterPolicy(firstDelay: .seconds(30), growth: 3, maxDelay: .minutes(5))
    let app = Self.chainApp()
    let sim = Fixture.simulation(power: Self.charging, resources: Self.episodes, policy: policy, app: app)
    try app.sessions["S"]!.downloadTask(with: "https://example.com/ep1", name: "ep1").resume()
    sim.backgroundApp()
    sim.run(until: SimTime(.days(2)))
    #expect(
      Array(sim.rateLimiterDelays.prefix(5)) == [
        .seconds(30), .seconds(90), .seconds(270), .minutes(5), .minutes(5),
      ])
  }
}

@Suite("Discretionary scheduling")
struct DiscretionaryTests {
  /// A discretionary download of `size` bytes created at 09:00 on cellular, on battery; Wi-Fi
  /// comes at 12:00 and the charger at 22:00. Returns the deferrals and the start time.
  static func nineOClock(size: Int64, expectsToReceive: Int64? = nil) throws -> ([String], SimTime?) {
    var configuration = SessionConfiguration.background(withIdentifier: "S")
    configuration.isDiscretionary = true
    let app = TestApp([configuration])
    let sim = Fixture.simulation(
      network: [Fixture.network(.cellular), Fixture.network(.wifi, at: .hours(12))],
      power: [
        Step(at: .zero, PowerState(charging: false)),
        Step(at: SimTime(.hours(22)), PowerState(charging: true)),
      ],
      resources: [Fixture.resource("https://example.com/a", size: size)], app: app)
    sim.run(until: SimTime(.hours(9)))
    let task = try app.sessions["S"]!.downloadTask(with: "https://example.com/a", name: "a")
    task.countOfBytesClientExpectsToReceive = expectsToReceive
    task.resume()
    sim.run(until: SimTime(.days(2)))
    let reasons = Fixture.events(sim, "task.deferred").map {
      "\($0.time): \($0["missing"]?.description ?? "")"
    }
    return (reasons, Fixture.time(sim, "task.started", task: "a"))
  }

  @Test("a large discretionary download created on cellular on battery starts on Wi-Fi and charging")
  func largeWaitsForWifiAndPower() throws {
    let (reasons, started) = try Self.nineOClock(size: 50_000_000)
    #expect(reasons == ["9h: wifi,charging", "12h: charging"])
    #expect(started == SimTime(.hours(22)))
  }

  @Test("a small discretionary download waits for Wi-Fi only, and starts on battery")
  func smallWaitsForWifiOnly() throws {
    let (reasons, started) = try Self.nineOClock(size: 1_000)
    #expect(reasons == ["9h: wifi"])
    #expect(started == SimTime(.hours(12)))
  }

  @Test("the app's size hints, not the resource, decide whether a transfer is large")
  func hintsDecideTheSize() throws {
    let (reasons, started) = try Self.nineOClock(size: 1_000, expectsToReceive: 60_000_000)
    #expect(reasons == ["9h: wifi,charging", "12h: charging"])
    #expect(started == SimTime(.hours(22)))
  }

  @Test("Low Power Mode holds discretionary work; a started discretionary task keeps going")
  func lowPowerMode() throws {
    var configuration = SessionConfiguration.background(withIdentifier: "S")
    configuration.isDiscretionary = true
    let app = TestApp([configuration])
    let sim = Fixture.simulation(
      power: [
        Step(at: .zero, PowerState(charging: true, lowPowerMode: true)),
        Step(at: SimTime(.hours(1)), PowerState(charging: true)),
        Step(at: SimTime(.hours(1) + .seconds(1)), PowerState(charging: false)),
      ],
      resources: [Fixture.resource("https://example.com/a", size: 10_000_000)], app: app)
    try app.sessions["S"]!.downloadTask(with: "https://example.com/a", name: "a").resume()
    sim.run(until: SimTime(.days(1)))
    #expect(Fixture.events(sim, "task.deferred").first?["missing"] == "lowPowerModeOff")
    #expect(Fixture.time(sim, "task.started", task: "a") == SimTime(.hours(1)))
    #expect(Fixture.events(sim, "task.finished").count == 1)
  }

  @Test("a task created in the background is discretionary whatever the session says")
  func backgroundCreatedIsDiscretionary() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(
      resources: [Fixture.resource("https://example.com/a", size: 100_000_000)], app: app)
    sim.backgroundApp()
    try app.sessions["S"]!.downloadTask(with: "https://example.com/a", name: "a").resume()
    sim.run(until: SimTime(.hours(1)))
    #expect(Fixture.events(sim, "task.created").first?["discretionary"] == .bool(true))
    let deferred = try #require(Fixture.events(sim, "task.deferred").first)
    #expect(deferred["reason"] == "discretionary")
    #expect(deferred["missing"] == "charging")
  }
}
