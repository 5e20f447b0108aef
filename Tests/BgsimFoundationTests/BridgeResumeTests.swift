import BgsimFoundation
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite struct BridgeResumeTests {
  static let episode = "https://example.com/episode.mp3"

  func world() -> Simulation {
    let server = ServerModel(resources: [
      ServerResource(url: SimURL(Self.episode)!, size: 500_000_000, etag: "\"e1\"")
    ])
    return Simulation(seed: 5, device: .wifi, server: server)
  }

  func delegate(_ sim: Simulation) -> PlainAppDelegate? { sim.currentAppDelegate as? PlainAppDelegate }

  @Test func forceQuitResumeDataSavedInTheContainerResumesInTheNextProcess() throws {
    let sim = world()
    sim.installApp { PlainAppDelegate($0) }
    var errorAfterRelaunch: NSError?
    var logs: [String] = []
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in self.delegate(sim)?.startDownload(Self.episode) }
    sim.schedule(at: SimTime(.seconds(21))) { $0.forceQuitApp() }
    sim.schedule(at: SimTime(.minutes(5))) { $0.launchApp() }
    sim.schedule(at: SimTime(.minutes(6))) { sim in
      errorAfterRelaunch = self.delegate(sim)?.downloads.lastError
      #expect(self.delegate(sim)?.resumeFromSavedData() == true)
    }
    sim.schedule(at: SimTime(.hours(1))) { sim in logs = self.delegate(sim)?.downloads.log ?? [] }
    sim.run(until: SimTime(.hours(2)))

    let error = try #require(errorAfterRelaunch)
    #expect(error.domain == NSURLErrorDomain)
    #expect(error.code == NSURLErrorCancelled)
    #expect(error.userInfo[NSURLErrorBackgroundTaskCancelledReasonKey] as? Int == 0)
    #expect((error.userInfo[NSURLErrorFailingURLErrorKey] as? URL)?.absoluteString == Self.episode)
    let data = try #require(error.userInfo[NSURLSessionDownloadTaskResumeData] as? Data)
    guard case .success(let record) = ResumeDataFormat.decode(data) else {
      Issue.record("resume data did not parse")
      return
    }
    #expect(record.bytesReceived > 0)
    #expect(record.entityTag == "\"e1\"")
    #expect(logs.first == "failed \(NSURLErrorDomain) -999")
    #expect(logs.contains("resumed at \(record.bytesReceived) of 500000000"))
    #expect(logs.suffix(2) == ["finished episode.mp3 size=500000000", "completed 200"])
    let resumed = sim.trace.events.first { $0.kind == "delegate.didResumeAtOffset" }
    #expect(resumed != nil)
  }

  /// Foundation resumes only GET downloads: the same cancel gives resume data for a GET request
  /// and nil for a POST one, whose method the engine's trace records.
  @Test(arguments: ["GET", "POST"])
  func onlyAGETDownloadProducesResumeData(method: String) throws {
    let sim = world()
    sim.installApp { PlainAppDelegate($0) }
    final class Outcome: @unchecked Sendable {
      var called = false
      var data: Data?
    }
    let outcome = Outcome()
    var task: URLSessionDownloadTask?
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in
      var request = URLRequest(url: URL(string: Self.episode)!)
      request.httpMethod = method
      task = self.delegate(sim)?.session?.downloadTask(with: request)
      task?.resume()
    }
    sim.schedule(at: SimTime(.seconds(21))) { _ in
      task?.cancel(byProducingResumeData: {
        outcome.called = true
        outcome.data = $0
      })
    }
    sim.run(until: SimTime(.seconds(30)))
    #expect(outcome.called)
    #expect((outcome.data != nil) == (method == "GET"))
    let created = sim.trace.events.first { $0.kind == "task.created" }
    #expect(created?["method"]?.description == (method == "GET" ? nil : "POST"))
  }

  @Test func garbageResumeDataFailsTheTaskWithAnError() throws {
    let sim = world()
    sim.installApp { PlainAppDelegate($0) }
    var log: [String] = []
    var error: NSError?
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in
      let session = try! #require(self.delegate(sim)?.session)
      session.downloadTask(withResumeData: Data("hello".utf8)).resume()
      session.downloadTask(withResumeData: Data()).resume()
    }
    sim.schedule(at: SimTime(.seconds(2))) { sim in
      log = self.delegate(sim)?.downloads.log ?? []
      error = self.delegate(sim)?.downloads.lastError
    }
    sim.run(until: SimTime(.seconds(3)))
    #expect(log == ["failed \(NSURLErrorDomain) -3003", "failed \(NSURLErrorDomain) -3003"])
    #expect(error?.code == NSURLErrorCannotWriteToFile)
    let problems = sim.trace.events.filter { $0.kind == "bridge.resumeDataRejected" }.map {
      $0["problem"]?.description
    }
    #expect(problems == ["notADictionary", "notAPropertyList"])
  }

  @Test func resumeDataFromAnotherSimulationIsStale() throws {
    let foreign = ResumeDataFormat.encode(
      ResumeDataRecord(
        url: URL(string: Self.episode)!, bytesReceived: 10, tempFileName: "CFNetworkDownload_x.tmp",
        entityTag: "\"e1\"",
        serverDownloadDate: nil, token: 1, sessionIdentifier: "com.example.downloads"))
    let sim = world()
    sim.installApp { PlainAppDelegate($0) }
    var log: [String] = []
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in
      self.delegate(sim)?.session.downloadTask(withResumeData: foreign).resume()
    }
    sim.schedule(at: SimTime(.seconds(2))) { sim in log = self.delegate(sim)?.downloads.log ?? [] }
    sim.run(until: SimTime(.seconds(3)))
    #expect(log == ["failed \(NSURLErrorDomain) -3003"])
    #expect(sim.trace.events.contains { $0.kind == "bridge.resumeDataRejected" && $0["problem"] == "stale" })
  }
}
