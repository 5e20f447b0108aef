import SimKernel
import Testing

@testable import TransferEngine

/// A force quit (or Background App Refresh off, or the app's process ending) takes all the app's
/// tasks at one instant: none may start in a slot a cancelled one just freed.
@Suite("Cancelling every task at once")
struct ForceQuitTests {
  static let episodes = (1...30).map { Fixture.resource("https://example.com/ep-\($0)", size: 50_000_000) }

  static func thirtyDownloads(_ configuration: SessionConfiguration, backgroundAppRefresh: Bool = true) throws
    -> (Simulation, TestApp)
  {
    let app = TestApp([configuration])
    let sim = Fixture.simulation(
      resources: episodes, app: app, backgroundAppRefresh: backgroundAppRefresh)
    for i in 1...30 {
      try app.sessions[configuration.identifier]!.downloadTask(
        with: "https://example.com/ep-\(i)", name: "ep-\(i)"
      ).resume()
    }
    sim.run(until: SimTime(.seconds(5)))
    #expect(Fixture.events(sim, "task.started").count == 4)
    return (sim, app)
  }

  /// The trace from `from` on, as `kind task` lines.
  static func after(_ sim: Simulation, _ from: SimTime) -> [TraceEvent] {
    sim.trace.events.filter { $0.time >= from }
  }

  @Test("a force quit with 4 of 30 downloads running cancels all 30 at once and starts none")
  func forceQuit() throws {
    let (sim, _) = try Self.thirtyDownloads(.background(withIdentifier: "S"))
    let quitAt = sim.now
    sim.forceQuitApp()
    sim.run(until: SimTime(.hours(1)))
    let events = Self.after(sim, quitAt)
    #expect(!events.contains { $0.is(.taskStarted) || $0.is(.taskRetry) })
    let cancelled = events.filter { $0.is(.taskCancelled) }
    #expect(cancelled.count == 30)
    #expect(cancelled.allSatisfy { $0.time == quitAt && $0["reason"] == "userForceQuitApplication" })
  }

  @Test("Background App Refresh off: leaving the app cancels every task at once and starts none")
  func backgroundAppRefreshOff() throws {
    let (sim, _) = try Self.thirtyDownloads(.background(withIdentifier: "S"), backgroundAppRefresh: false)
    let leftAt = sim.now
    sim.backgroundApp()
    sim.run(until: SimTime(.hours(1)))
    let events = Self.after(sim, leftAt)
    #expect(!events.contains { $0.is(.taskStarted) })
    #expect(events.filter { $0.is(.taskCancelled) }.count == 30)
  }

  @Test("a terminated app's default-session tasks vanish together; none starts in a freed slot")
  func defaultSessionVanishes() throws {
    let (sim, _) = try Self.thirtyDownloads(.default(identifier: "D"))
    let at = sim.now
    sim.terminateApp()
    sim.run(until: SimTime(.hours(1)))
    let events = Self.after(sim, at)
    #expect(!events.contains { $0.is(.taskStarted) })
    #expect(events.filter { $0.is(.taskLost) }.count == 30)
  }

  @Test("invalidateAndCancel cancels the session's tasks at once and starts none")
  func invalidateAndCancel() throws {
    let (sim, app) = try Self.thirtyDownloads(.background(withIdentifier: "S"))
    let at = sim.now
    app.sessions["S"]!.invalidateAndCancel()
    sim.run(until: SimTime(.hours(1)))
    let events = Self.after(sim, at)
    #expect(!events.contains { $0.is(.taskStarted) })
    #expect(events.filter { $0.is(.taskCancelled) }.count == 30)
  }
}
