import BgsimTesting
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A Tiercel-shaped manager: it downloads a list one file at a time, starting the next when one
/// completes. `persistsQueue` off keeps the list in memory only (the stall after a process death:
/// the relaunched process no longer knows what was left); on, in `Library/queue.txt`.
final class QueueApp: NSObject, SimulatedAppDelegate, URLSessionDownloadDelegate, UserVisibleState,
  @unchecked Sendable
{
  static let urls = (1...5).map { URL(string: "https://files.example.com/part\($0).bin")! }
  let persistsQueue: Bool
  var application: SimulatedApplication!
  var session: URLSession!
  var queue: [URL] = []
  var completion: (() -> Void)?

  init(persistsQueue: Bool) { self.persistsQueue = persistsQueue }

  var queueFile: URL { application.containerDirectory.appendingPathComponent("Library/queue.txt") }
  var documents: URL { application.containerDirectory.appendingPathComponent("Documents", isDirectory: true) }

  func applicationDidFinishLaunching(_ application: SimulatedApplication) {
    self.application = application
    try? FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
    try? FileManager.default.createDirectory(
      at: queueFile.deletingLastPathComponent(), withIntermediateDirectories: true)
    if persistsQueue, let text = try? String(contentsOf: queueFile, encoding: .utf8) {
      queue = text.split(separator: "\n").compactMap { URL(string: String($0)) }
    }
    session = application.makeURLSession(
      configuration: .simulatedBackground(withIdentifier: "queue"), delegate: self, delegateQueue: nil)
  }

  func application(
    _ application: SimulatedApplication, handleEventsForBackgroundURLSession identifier: String,
    completionHandler: @escaping () -> Void
  ) {
    completion = completionHandler
  }

  /// The user taps Download All.
  func downloadAll() {
    queue = Self.urls
    startNext()
  }

  func startNext() {
    guard !queue.isEmpty else { return save() }
    session.downloadTask(with: queue.removeFirst()).resume()
    save()
  }

  func save() {
    guard persistsQueue else { return }
    try? queue.map(\.absoluteString).joined(separator: "\n").write(
      to: queueFile, atomically: true, encoding: .utf8)
  }

  func urlSession(
    _ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL
  ) {
    guard let name = downloadTask.originalRequest?.url?.lastPathComponent else { return }
    let target = documents.appendingPathComponent(name)
    try? FileManager.default.removeItem(at: target)
    try? FileManager.default.moveItem(at: location, to: target)
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
    startNext()
  }

  func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
    completion?()
    completion = nil
  }

  /// The files the user can play.
  func userVisibleState() -> String {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: documents.path)) ?? []
    return names.sorted().joined(separator: "\n")
  }
}

#if !(canImport(Darwin) && !os(macOS))
  extension QueueApp: URLSessionBackgroundEventsDelegate {}
#endif

/// Wi-Fi and charging, five 20 MB files; the user taps Download All at 1 s and leaves at 2 s.
func queueWorld() -> ExplorationWorld {
  ExplorationWorld(duration: .hours(6)) { seed in
    let server = ServerModel(
      resources: QueueApp.urls.map {
        ServerResource(url: SimURL($0.absoluteString)!, size: 20_000_000, etag: "\"q\"")
      })
    // Charging: tasks an app creates in the background are discretionary.
    var device = DeviceModel.wifi
    device.power = [Step(at: .zero, PowerState(charging: true))]
    return Simulation(seed: seed, device: device, server: server)
  } user: { sim in
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { ($0.currentAppDelegate as? QueueApp)?.downloadAll() }
    sim.schedule(at: SimTime(.seconds(2))) { $0.backgroundApp() }
  }
}
