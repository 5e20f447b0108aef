import BgsimFoundation
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite struct BridgeLifecycleTests {
  static let episode = "https://example.com/episode.mp3"

  func world(seed: UInt64 = 1) -> Simulation {
    let server = ServerModel(resources: [
      ServerResource(url: SimURL(Self.episode)!, size: 500_000_000, etag: "\"e1\"")
    ])
    return Simulation(seed: seed, device: .wifi, server: server)
  }

  func delegate(_ sim: Simulation) -> PlainAppDelegate? { sim.currentAppDelegate as? PlainAppDelegate }

  /// User starts a download, leaves, the system kills the app; the background relaunch gets the
  /// file, the main-queue completion handler is called before time moves on.
  func runRelaunch(seed: UInt64) -> (Simulation, [String]) {
    let sim = world(seed: seed)
    var logs: [String] = []
    sim.installApp { app in
      let d = PlainAppDelegate(app)
      return d
    }
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in self.delegate(sim)?.startDownload(Self.episode) }
    sim.schedule(at: SimTime(.seconds(2))) { $0.backgroundApp() }
    sim.schedule(at: SimTime(.seconds(30))) { sim in
      logs += self.delegate(sim)?.downloads.log ?? []
      sim.terminateApp()
    }
    sim.schedule(at: SimTime(.minutes(30))) { sim in logs += self.delegate(sim)?.downloads.log ?? [] }
    sim.run(until: SimTime(.hours(1)))
    return (sim, logs)
  }

  @Test func backgroundRelaunchDeliversTheFileToAFreshDelegate() throws {
    let (sim, logs) = runRelaunch(seed: 3)
    let kinds = sim.trace.events.map(\.kind)
    #expect(kinds.contains("app.launch"))
    let launches = sim.trace.events.filter { $0.kind == "app.launch" }.map { $0["reason"]?.description ?? "" }
    #expect(launches == ["user", "background"])
    #expect(logs == ["finished episode.mp3 size=500000000", "completed 200"])
    #expect(kinds.contains("app.completionHandlerCalled"))
    #expect(!kinds.contains("lint"))
    let file = try #require(sim.appContainerDirectory?.appendingPathComponent("Documents/episode.mp3"))
    let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber
    #expect(size?.int64Value == 500_000_000)
  }

  @Test func sameAppAndSeedGiveTheSameTrace() {
    let first = runRelaunch(seed: 9).0.trace.jsonLines
    let second = runRelaunch(seed: 9).0.trace.jsonLines
    #expect(first == second)
    #expect(!first.isEmpty)
  }
}
