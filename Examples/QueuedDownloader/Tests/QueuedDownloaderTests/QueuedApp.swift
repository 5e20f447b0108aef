import BgsimFoundation
import BgsimTesting
import Foundation
import QueuedDownloader

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

#if !(canImport(Darwin) && !os(macOS))
  // Foundation declares `urlSessionDidFinishEvents(forBackgroundURLSession:)` on iOS only;
  // elsewhere the adapter tells the bridge the manager has it.
  extension QueuedDownloader: URLSessionBackgroundEventsDelegate {}
#endif

/// The adapter: what the app's `UIApplicationDelegate` does, with the seams filled in by the
/// simulation (`makeURLSession` and `after` in place of `URLSession(...)` and `asyncAfter`).
final class QueuedAppDelegate: SimulatedAppDelegate, UserVisibleState {
  let configuration: QueuedDownloaderConfiguration
  var downloader: QueuedDownloader!

  init(_ configuration: QueuedDownloaderConfiguration = .init()) { self.configuration = configuration }

  func applicationDidFinishLaunching(_ application: SimulatedApplication) {
    downloader = QueuedDownloader(
      container: application.containerDirectory, configuration: configuration, delay: application.after
    ) { identifier, delegate, queue in
      application.makeURLSession(
        configuration: .simulatedBackground(withIdentifier: identifier), delegate: delegate,
        delegateQueue: queue)
    }
  }

  func application(
    _ application: SimulatedApplication, handleEventsForBackgroundURLSession identifier: String,
    completionHandler: @escaping () -> Void
  ) {
    downloader.handleEventsForBackgroundSession(completionHandler: completionHandler)
  }

  /// What the user sees: each download and its state (the exploration compares it with the run
  /// without faults after the user's last launch).
  func userVisibleState() -> String { downloader?.summaryLines ?? "" }
}

/// The worlds the tests share: Wi-Fi and charging (tasks an app creates in the background are
/// discretionary, and a charging device on Wi-Fi runs them), files of `size` bytes.
enum Worlds {
  static func urls(_ count: Int) -> [URL] {
    (1...count).map { URL(string: "https://files.example.com/queued/file\($0).bin")! }
  }

  static func simulation(seed: UInt64, files: Int, size: Int64) -> Simulation {
    let server = ServerModel(
      resources: urls(files).map {
        ServerResource(url: SimURL($0.absoluteString)!, size: size, etag: "\"v1\"")
      })
    var device = DeviceModel.wifi
    device.power = [Step(at: .zero, PowerState(charging: true))]
    return Simulation(seed: seed, device: device, server: server)
  }

  static func downloader(_ sim: Simulation) -> QueuedDownloader? {
    (sim.currentAppDelegate as? QueuedAppDelegate)?.downloader
  }

  /// The user opens the app, taps Download All at 1 s and leaves it at 2 s.
  static func userTapsDownloadAll(_ sim: Simulation, files: Int) {
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { downloader($0)?.download(urls(files)) }
    sim.schedule(at: SimTime(.seconds(2))) { $0.backgroundApp() }
  }

  /// The files in the app's downloads folder, sorted.
  static func downloadedFiles(_ sim: Simulation) -> [String] {
    guard let container = sim.appContainerDirectory else { return [] }
    let folder = container.appendingPathComponent("Documents/Downloads")
    return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
  }

  static func lints(_ sim: Simulation) -> [String] {
    sim.trace.events.filter { $0.kind == "lint" }.map(\.jsonLine)
  }
}
