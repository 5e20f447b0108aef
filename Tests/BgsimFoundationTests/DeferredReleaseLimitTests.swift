import Foundation
import Testing

@testable import BgsimFoundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Deferring the release of a dead process's task objects is bounded: past `limit` objects
/// waiting, a process's objects are released when it ends, as if nothing were deferred. The limit
/// (100,000) is lowered here rather than make that many tasks.
@Suite struct DeferredReleaseLimitTests {
  final class WeakTask {
    weak var task: URLSessionTask?
    init(_ task: URLSessionTask) { self.task = task }
  }

  /// Twenty tasks die with their process; returns how many of their objects were alive just after
  /// the death and at the end of the run, and how many calls the relaunched process heard (nil
  /// `limit`: the bridge's own). `BridgeDeadTaskObjectsTests` runs it too.
  static func objectsAlive(deferredReleaseLimit limit: Int?) throws -> (atDeath: Int, atEnd: Int, heard: Int)
  {
    let count = 20
    let urls = (1...count).map { "https://example.com/item-\($0).bin" }
    let server = ServerModel(resources: urls.map { ServerResource(url: SimURL($0)!, size: 50_000_000) })
    let sim = Simulation(seed: 3, device: .wifi, server: server)
    sim.installApp { RequestRecordingApp($0) }
    let release = try #require(sim.bridgeHost?.deferredRelease)
    if let limit { release.limit = limit }
    var made: [WeakTask] = []
    var atDeath = -1
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
      atDeath = made.filter { $0.task != nil }.count
    }
    sim.run(until: SimTime(.hours(1)))
    // Counted while the simulation is still alive.
    let atEnd = made.filter { $0.task != nil }.count
    let heard = (sim.currentAppDelegate as? RequestRecordingApp)?.calls.seen.count ?? -1
    withExtendedLifetime(sim) {}
    return (atDeath, atEnd, heard)
  }

  @Test func aProcessWhoseObjectsFitUnderTheLimitIsReleasedLater() throws {
    let alive = try Self.objectsAlive(deferredReleaseLimit: 20)
    #expect(alive.atDeath == 20)
    #expect(alive.atEnd == 0)
  }

  @Test func aProcessWhoseObjectsWouldPassTheLimitIsReleasedAtItsDeath() throws {
    let alive = try Self.objectsAlive(deferredReleaseLimit: 19)
    #expect(alive.atDeath == 0, "deferred past the limit: a run with many deaths would grow without bound")
    #expect(alive.atEnd == 0)
  }
}
