import SimKernel
import Testing

@testable import TransferEngine

/// A device restart (behavior.md, "Device restart").
@Suite("Device restart")
struct RebootTests {
  /// 80 s at the default Wi-Fi rate; resumable.
  static let season = [
    ServerResource(
      url: SimURL("https://example.com/season")!, size: 500_000_000, etag: "s", acceptsRanges: true)
  ]

  static func first(_ sim: Simulation, _ kind: String, _ match: (TraceEvent) -> Bool = { _ in true })
    -> TraceEvent?
  {
    sim.trace.events.first { $0.kind == kind && match($0) }
  }

  static func field(_ event: TraceEvent?, _ key: String) -> TraceValue? {
    event?.fields.first { $0.key == key }?.value
  }

  @Test("locked until the first unlock: no transfer, then the download continues from its offset")
  func keepsTasks() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(resources: Self.season, app: app)
    try app.sessions["S"]!.downloadTask(with: "https://example.com/season", name: "season").resume()
    sim.backgroundApp()
    sim.schedule(at: SimTime(.seconds(30))) { $0.rebootDevice() }
    sim.run(until: SimTime(.hours(1)))
    #expect(Self.field(Self.first(sim, "app.terminate"), "reason") == .string("reboot"))
    #expect(Self.field(Self.first(sim, "task.deferred"), "reason") == .string("deviceLocked"))
    let unlock = try #require(Self.first(sim, "device.unlock"))
    #expect(unlock.time == SimTime(.seconds(90)))
    let retry = try #require(Self.first(sim, "task.retry"))
    #expect(retry.time == unlock.time)
    if case .int(let offset)? = Self.field(retry, "offset") {
      #expect(offset > 0)
    } else {
      Issue.record("no offset")
    }
    let launch = try #require(Self.first(sim, "app.launch") { $0.time > .zero })
    #expect(Self.field(launch, "reason") == .string("background"))
    #expect(sim.allTasks.first?.state == .completed)
  }

  @Test("no background launch while locked: a wake owed at the restart waits for the unlock")
  func noWakeWhileLocked() throws {
    var policy = Policy.defaults
    policy.reboot.unlockAfter = .minutes(10)
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(resources: Self.season, policy: policy, app: app)
    try app.sessions["S"]!.downloadTask(with: "https://example.com/season", name: "season").resume()
    sim.backgroundApp()
    sim.schedule(at: SimTime(.seconds(30))) { $0.rebootDevice() }
    sim.run(until: SimTime(.hours(1)))
    let launch = try #require(Self.first(sim, "app.launch") { $0.time > .zero })
    #expect(launch.time > SimTime(.minutes(10) + .seconds(30)))
  }

  @Test("the user's launch unlocks the device before unlockAfter")
  func launchUnlocks() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(resources: Self.season, app: app)
    try app.sessions["S"]!.downloadTask(with: "https://example.com/season", name: "season").resume()
    sim.schedule(at: SimTime(.seconds(10))) { $0.rebootDevice() }
    sim.schedule(at: SimTime(.seconds(20))) { $0.launchApp() }
    sim.run(until: SimTime(.hours(1)))
    #expect(Self.first(sim, "device.unlock")?.time == SimTime(.seconds(20)))
    #expect(sim.trace.events.filter { $0.kind == "device.unlock" }.count == 1)
    #expect(Self.first(sim, "task.retry")?.time == SimTime(.seconds(20)))
  }

  @Test("with keepsBackgroundTasks false the tasks are lost and the app is never told")
  func losesTasks() throws {
    var policy = Policy.defaults
    policy.reboot.keepsBackgroundTasks = false
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(resources: Self.season, policy: policy, app: app)
    try app.sessions["S"]!.downloadTask(with: "https://example.com/season", name: "season").resume()
    sim.backgroundApp()
    sim.schedule(at: SimTime(.seconds(30))) { $0.rebootDevice() }
    sim.schedule(at: SimTime(.minutes(5))) { $0.launchApp() }
    sim.run(until: SimTime(.hours(1)))
    #expect(Self.field(Self.first(sim, "task.lost"), "reason") == .string("deviceRestarted"))
    #expect(app.completions.isEmpty)
  }

  @Test("a default session's transfer dies with the process at a restart")
  func defaultSessionVanishes() throws {
    let app = TestApp([.default(identifier: "F")])
    let sim = Fixture.simulation(resources: Self.season, app: app)
    try app.sessions["F"]!.downloadTask(with: "https://example.com/season", name: "fg").resume()
    sim.schedule(at: SimTime(.seconds(10))) { $0.rebootDevice() }
    sim.run(until: SimTime(.hours(1)))
    #expect(Self.field(Self.first(sim, "task.lost"), "reason") == .string("appTerminated"))
    #expect(sim.appState == .notRunning)
  }
}
