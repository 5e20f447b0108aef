import BgsimFoundation
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The Foundation task objects of a process that ended are released while the simulation runs on
/// (a few while the app runs each later delegate call), not kept until the simulation ends.
@Suite struct BridgeDeadTaskObjectsTests {
  final class WeakTask {
    weak var task: URLSessionTask?
    init(_ task: URLSessionTask) { self.task = task }
  }

  @Test func aDeadProcesssTaskObjectsAreReleasedDuringTheRun() throws {
    let count = 20
    let urls = (1...count).map { "https://example.com/item-\($0).bin" }
    let server = ServerModel(resources: urls.map { ServerResource(url: SimURL($0)!, size: 50_000_000) })
    let sim = Simulation(seed: 3, device: .wifi, server: server)
    sim.installApp { RequestRecordingApp($0) }
    var made: [WeakTask] = []
    var aliveAtDeath = 0
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in
      let app = sim.currentAppDelegate as! RequestRecordingApp
      for url in urls {
        let task = app.session.downloadTask(with: URL(string: url)!)
        task.resume()
        made.append(WeakTask(task))
      }
    }
    sim.schedule(at: SimTime(.seconds(2))) { $0.backgroundApp() }
    sim.schedule(at: SimTime(.seconds(3))) { sim in
      sim.terminateApp()
      aliveAtDeath = made.filter { $0.task != nil }.count
    }
    sim.run(until: SimTime(.hours(1)))

    // The relaunched process heard of every task (two calls each), so the first one's objects
    // had their turn; the simulation is still alive here.
    let relaunched = try #require(sim.currentAppDelegate as? RequestRecordingApp)
    #expect(relaunched.calls.seen.count == count)
    #expect(aliveAtDeath == count, "released at the death, before any later call: not deferred")
    #expect(made.filter { $0.task != nil }.count == 0)
    withExtendedLifetime(sim) {}
  }
}
