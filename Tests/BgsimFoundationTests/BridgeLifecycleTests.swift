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

  @Test func delegateCodeThatWaitsForTheMainQueueDoesNotDeadlock() {
    let sim = world(seed: 2)
    sim.installApp { app in
      let d = PlainAppDelegate(app)
      d.downloads.syncsToMainOnCompletion = true
      return d
    }
    var log: [String] = []
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in self.delegate(sim)?.startDownload(Self.episode) }
    sim.schedule(at: SimTime(.hours(1))) { sim in log = self.delegate(sim)?.downloads.log ?? [] }
    sim.run(until: SimTime(.hours(2)))
    #expect(log == ["finished episode.mp3 size=500000000", "on main", "completed 200"])
  }

  @Test func theDelegateSeesFoundationTypesAndOneObjectPerTask() throws {
    let sim = world(seed: 2)
    sim.installApp { PlainAppDelegate($0) }
    var delegate: PlainDownloadDelegate?
    let listed = IdentifierBox()
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in self.delegate(sim)?.startDownload(Self.episode) }
    sim.schedule(at: SimTime(.seconds(5))) { sim in
      self.delegate(sim)?.session.getTasksWithCompletionHandler { data, uploads, downloads in
        listed.ids = downloads.map { ObjectIdentifier($0) }
        #expect(data.isEmpty && uploads.isEmpty)
        #expect(downloads.first?.state == .running)
        #expect(downloads.first?.originalRequest?.httpMethod == "GET")
        #expect(downloads.first?.countOfBytesExpectedToReceive == 500_000_000)
      }
    }
    sim.schedule(at: SimTime(.hours(1))) { sim in delegate = self.delegate(sim)?.downloads }
    sim.run(until: SimTime(.hours(2)))
    let seen = try #require(delegate)
    #expect(listed.ids.count == 1)
    #expect(Set(seen.tasksSeen) == Set(listed.ids))
    let response = try #require(seen.lastResponse)
    #expect(response.statusCode == 200)
    #expect(response.value(forHTTPHeaderField: "Content-Length") == "500000000")
    #expect(response.value(forHTTPHeaderField: "ETag") == "\"e1\"")
    #expect(response.value(forHTTPHeaderField: "Accept-Ranges") == "bytes")
    #expect(response.value(forHTTPHeaderField: "Last-Modified") == nil)
    // Libraries archive responses: it must round-trip through NSSecureCoding's archiver.
    let archived = try NSKeyedArchiver.archivedData(withRootObject: response, requiringSecureCoding: true)
    #expect(!archived.isEmpty)
  }

  @Test func earliestBeginDateHoldsTheTaskUntilThen() {
    let sim = world(seed: 2)
    sim.installApp { PlainAppDelegate($0) }
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in
      let app = self.delegate(sim)!
      let task = app.session.downloadTask(with: URL(string: Self.episode)!)
      task.earliestBeginDate = app.application.now.addingTimeInterval(60)
      #expect(task.earliestBeginDate == sim.referenceDate.addingTimeInterval(61))
      task.resume()
    }
    sim.run(until: SimTime(.minutes(5)))
    let started = sim.trace.events.first { $0.kind == "task.started" }
    #expect(started?.time == SimTime(.seconds(61)))
  }
}

/// Task identities handed back on the delegate queue, read after the bridge waited for it.
final class IdentifierBox: @unchecked Sendable { var ids: [ObjectIdentifier] = [] }
