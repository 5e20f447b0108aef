import BgsimFoundation
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A download delegate that unzips each file it is handed: `SimulatedApplication.spend` says
/// how long that takes on a device.
private final class UnzippingDelegate: NSObject, URLSessionDownloadDelegate,
  URLSessionBackgroundEventsDelegate,
  @unchecked Sendable
{
  let application: SimulatedApplication
  let secondsPerFile: TimeInterval
  var onFinishEvents: (() -> Void)?
  var log: [String] = []

  init(_ application: SimulatedApplication, secondsPerFile: TimeInterval) {
    self.application = application
    self.secondsPerFile = secondsPerFile
  }

  func urlSession(
    _ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL
  ) {
    let name = downloadTask.originalRequest?.url?.lastPathComponent ?? "unknown"
    let documents = application.containerDirectory.appendingPathComponent("Documents", isDirectory: true)
    try? FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
    try? FileManager.default.moveItem(at: location, to: documents.appendingPathComponent(name))
    application.spend(secondsPerFile)
    log.append("unzipped \(name)")
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
    log.append("completed \(task.originalRequest?.url?.lastPathComponent ?? "unknown")")
  }

  func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
    DispatchQueue.main.async { self.onFinishEvents?() }
  }
}

private final class UnzippingApp: SimulatedAppDelegate {
  let downloads: UnzippingDelegate
  var session: URLSession!
  var handler: (() -> Void)?

  init(_ application: SimulatedApplication, secondsPerFile: TimeInterval) {
    downloads = UnzippingDelegate(application, secondsPerFile: secondsPerFile)
  }

  func applicationDidFinishLaunching(_ application: SimulatedApplication) {
    session = application.makeURLSession(
      configuration: .simulatedBackground(withIdentifier: "unzip"), delegate: downloads, delegateQueue: nil)
    downloads.onFinishEvents = { [weak self] in
      self?.handler?()
      self?.handler = nil
    }
  }

  func application(
    _ application: SimulatedApplication, handleEventsForBackgroundURLSession identifier: String,
    completionHandler: @escaping () -> Void
  ) {
    handler = completionHandler
  }
}

@Suite("BgsimFoundation: the app's own time")
struct BridgeAppTimeTests {
  static let urls = (1...3).map { "https://example.com/archive-\($0).zip" }

  /// Three downloads finish while the app is suspended; the wake's callbacks spend
  /// `secondsPerFile` each. Returns the run and each process's delegate log, in launch order.
  static func run(secondsPerFile: TimeInterval) -> (Simulation, [[String]]) {
    let server = ServerModel(
      resources: urls.map { ServerResource(url: SimURL($0)!, size: 40_000_000, etag: "\"a\"") })
    let sim = Simulation(seed: 1, device: .wifi, server: server)
    var apps: [UnzippingApp] = []
    sim.installApp { application in
      let app = UnzippingApp(application, secondsPerFile: secondsPerFile)
      apps.append(app)
      return app
    }
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in
      let app = sim.currentAppDelegate as? UnzippingApp
      for url in urls { app?.session.downloadTask(with: URL(string: url)!).resume() }
    }
    sim.schedule(at: SimTime(.seconds(2))) { $0.backgroundApp() }
    sim.schedule(at: SimTime(.hours(1))) { $0.launchApp() }
    sim.run(until: SimTime(.hours(2)))
    return (sim, apps.map(\.downloads.log))
  }

  @Test("spent time past the wake's 30 s: the watchdog kills the app, the rest comes at the next launch")
  func watchdog() throws {
    let (sim, logs) = Self.run(secondsPerFile: 12)
    let lints = sim.trace.events.filter { $0.kind == "lint" }
    #expect(lints.map { $0["rule"]?.description } == ["slowCallback"])
    #expect(lints.first?["message"]?.description.contains("didFinishDownloadingTo") == true)
    let terminations = sim.trace.events.filter { $0.kind == "app.terminate" }.map {
      $0["reason"]?.description
    }
    #expect(terminations == ["watchdog"])
    #expect(logs.count == 2)
    #expect(
      logs.first?.suffix(5) == [
        "unzipped archive-1.zip", "completed archive-1.zip", "unzipped archive-2.zip",
        "completed archive-2.zip",
        "unzipped archive-3.zip",
      ])
    #expect(logs.last == ["completed archive-3.zip"])
  }

  @Test("spent time within the wake: every callback comes, later by the time spent, and no lint")
  func fits() {
    let (sim, logs) = Self.run(secondsPerFile: 8)
    #expect(!sim.trace.events.contains { $0.kind == "lint" || $0.kind == "app.terminate" })
    let busy = sim.trace.events.filter { $0.kind == "app.busy" }
    #expect(busy.count == 3)
    let completions = sim.trace.events.filter { $0.kind == "delegate.didComplete" }.map(
      \.time.sinceStart.seconds)
    #expect(completions.count == 3)
    if completions.count == 3 {
      #expect(abs(completions[1] - completions[0] - 8) < 1e-6)
      #expect(abs(completions[2] - completions[1] - 8) < 1e-6)
    }
    #expect(logs.first?.filter { $0.hasPrefix("completed") }.count == 3)
  }
}
