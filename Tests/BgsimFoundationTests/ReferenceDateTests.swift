import BgsimFoundation
import Foundation
import Testing

/// `Simulation.referenceDate` belongs to one simulation: its device's clock at time 0, set by a
/// scenario's `startsAt`, else 2100-01-01T00:00:00Z. Two simulations with different clocks run
/// side by side without seeing each other's.
@Suite struct ReferenceDateTests {
  static let episode = "https://example.com/e.mp3"

  func world(clock: Int64?) -> Simulation {
    let server = ServerModel(resources: [
      ServerResource(url: SimURL(Self.episode)!, size: 1_000, etag: "\"e\"")
    ])
    var device = DeviceModel.wifi
    if let clock { device.clockAtStart = clock }
    return Simulation(seed: 1, device: device, server: server)
  }

  @Test func eachSimulationHasItsOwnClock() {
    let march = world(clock: 1_772_398_800)  // 2026-03-01T21:00:00Z
    let plain = world(clock: nil)
    #expect(plain.referenceDate == Simulation.defaultReferenceDate)
    #expect(plain.referenceDate == Date(timeIntervalSince1970: 4_102_444_800))
    #expect(march.referenceDate == Date(timeIntervalSince1970: 1_772_398_800))
    var seen: [Date] = []
    var begins: [Date?] = []
    for sim in [march, plain] {
      sim.installApp { PlainAppDelegate($0) }
      sim.schedule(at: .zero) { $0.launchApp() }
      sim.schedule(at: SimTime(.seconds(30))) { sim in
        let app = sim.currentAppDelegate as! PlainAppDelegate
        seen.append(app.application.now)
        let task = app.session.downloadTask(with: URL(string: Self.episode)!)
        task.earliestBeginDate = app.application.now.addingTimeInterval(60)
        begins.append(task.earliestBeginDate)
        task.resume()
      }
      sim.run(until: SimTime(.minutes(5)))
      #expect(sim.trace.events.first { $0.kind == "task.started" }?.time == SimTime(.seconds(90)))
    }
    #expect(seen == [march.referenceDate + 30, plain.referenceDate + 30])
    #expect(begins == [march.referenceDate + 90, plain.referenceDate + 90])
  }

  @Test func aScenariosStartsAtSetsTheClock() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bgsim-startsat-\(getpid()).json")
    try Data(
      """
      {"name": "clock", "startsAt": "2026-03-01T21:00:00", "duration": "1h",
       "timeline": [{"at": "21:30", "do": "launch"}], "expect": []}
      """.utf8
    ).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    var launchedAt: Date?
    let result = try ScenarioRunner.run(file: file.path) { app in
      launchedAt = app.now
      return PlainAppDelegate(app)
    }
    #expect(result.runError == nil)
    #expect(launchedAt == Date(timeIntervalSince1970: 1_772_398_800 + 1_800))
  }
}
