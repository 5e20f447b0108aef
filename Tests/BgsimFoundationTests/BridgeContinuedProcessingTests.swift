import BgsimFoundation
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A sync that downloads its files under a continued-processing task, one unit of progress per
/// file, and completes the task after the last (or never reports, with `reports` false).
final class SyncApp: NSObject, SimulatedAppDelegate, URLSessionDownloadDelegate, @unchecked Sendable {
  let application: SimulatedApplication
  let reports: Bool
  var session: URLSession!
  var task: ContinuedProcessingTask?
  var log: [String] = []

  init(_ application: SimulatedApplication, reports: Bool) {
    self.application = application
    self.reports = reports
  }

  func applicationDidFinishLaunching(_ application: SimulatedApplication) {
    session = application.makeURLSession(
      configuration: .simulatedBackground(withIdentifier: "sync"), delegate: self, delegateQueue: nil)
  }

  func application(
    _ application: SimulatedApplication, handleEventsForBackgroundURLSession identifier: String,
    completionHandler: @escaping () -> Void
  ) { completionHandler() }

  /// The user taps Sync.
  func startSync(_ urls: [String]) {
    let request = ContinuedProcessingTaskRequest(
      identifier: "com.example.sync", title: "Syncing", subtitle: "")
    do {
      try application.submit(request) { task in
        self.task = task
        task.progress.totalUnitCount = Int64(urls.count)
        task.expirationHandler = {
          self.log.append("expired")
          task.setTaskCompleted(success: false)
        }
        for url in urls { self.session.downloadTask(with: URL(string: url)!).resume() }
      }
    } catch {
      log.append("refused \(error.code)")
    }
  }

  func urlSession(
    _ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL
  ) {
    guard reports, let task else { return }
    task.progress.completedUnitCount += 1
    if task.progress.completedUnitCount == task.progress.totalUnitCount {
      task.setTaskCompleted(success: true)
    }
  }
}

@Suite("BgsimFoundation: continued processing")
struct BridgeContinuedProcessingTests {
  static let urls = (1...3).map { "https://example.com/part-\($0).bin" }

  static func run(reports: Bool, size: Int64) -> (Simulation, SyncApp?) {
    let server = ServerModel(
      resources: urls.map { ServerResource(url: SimURL($0)!, size: size, etag: "\"a\"") })
    let sim = Simulation(seed: 1, device: .wifi, server: server)
    var app: SyncApp?
    sim.installApp { application in
      let made = SyncApp(application, reports: reports)
      app = made
      return made
    }
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in (sim.currentAppDelegate as? SyncApp)?.startSync(urls) }
    sim.schedule(at: SimTime(.seconds(2))) { $0.backgroundApp() }
    sim.run(until: SimTime(.hours(1)))
    return (sim, app)
  }

  static func lines(_ sim: Simulation, _ kinds: Set<String>) -> [String] {
    // The test app leaves its files where they are delivered (downloadedFileLost): not this test's concern.
    sim.trace.events.filter {
      kinds.contains($0.kind) && $0["rule"]?.description.hasPrefix("continued") != false
    }
    .map { event in
      [event.kind, event["completed"]?.description, event["result"]?.description, event["rule"]?.description]
        .compactMap { $0 }.joined(separator: " ")
    }
  }

  @Test("progress through task.progress, setTaskCompleted after the last file: the app runs until then")
  func completes() throws {
    let (sim, app) = Self.run(reports: true, size: 40_000_000)
    #expect(
      Self.lines(sim, ["continued.start", "continued.progress", "continued.end", "lint"]) == [
        "continued.start", "continued.progress 0", "continued.progress 1", "continued.progress 2",
        "continued.progress 3", "continued.end succeeded",
      ])
    let end = try #require(sim.trace.events.first { $0.kind == "continued.end" })
    // Running in the background past backgroundRunTime, suspended when the task ends.
    #expect(end.time > SimTime(.seconds(7)))
    #expect(sim.trace.events.first { $0.kind == "app.suspend" }?.time == end.time)
    #expect(app?.log == [])
  }

  @Test("no progress reported: expired after the window, the expiration handler completes it")
  func expires() {
    let (sim, app) = Self.run(reports: false, size: 40_000_000)
    #expect(
      Self.lines(sim, ["continued.end", "lint"]) == ["lint continuedTaskExpired", "continued.end expired"])
    #expect(sim.trace.events.first { $0.kind == "continued.end" }?.time == SimTime(.seconds(31)))
    #expect(app?.log == ["expired"])
  }

  @Test("a .fail request that cannot run now throws immediateRunIneligible (4)")
  func failStrategy() {
    let sim = Simulation(seed: 1, device: .wifi, server: ServerModel(resources: []))
    var errors: [Int] = []
    sim.installApp { application in
      let app = SyncApp(application, reports: true)
      return app
    }
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in
      guard let app = sim.currentAppDelegate as? SyncApp else { return }
      try? app.application.submit(ContinuedProcessingTaskRequest(identifier: "a", title: "A", subtitle: "")) {
        _ in
      }
      let second = ContinuedProcessingTaskRequest(identifier: "b", title: "B", subtitle: "")
      second.strategy = .fail
      do {
        try app.application.submit(second) { _ in }
      } catch let error as ContinuedProcessingSubmitError {
        errors.append(error.code)
      } catch {}
    }
    sim.run(until: SimTime(.seconds(5)))
    #expect(errors == [4])
  }
}
