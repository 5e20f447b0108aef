import BgsimTesting
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A small download manager like the shipped example's: it downloads one file in a background
/// session, moves it to Documents and records each file's state in `Library/state.txt`, either
/// at once or `saveDelay` seconds after a change (the late write: lost if the process dies first).
/// `resumesAfterForceQuit` off plants a second bug: after a force quit it waits for the user.
final class LateWriteApp: NSObject, SimulatedAppDelegate, URLSessionDownloadDelegate, UserVisibleState,
  @unchecked Sendable
{
  static let url = URL(string: "https://files.example.com/big.bin")!
  let saveDelay: TimeInterval
  let resumesAfterForceQuit: Bool
  var application: SimulatedApplication!
  var session: URLSession!
  var states: [String: String] = [:]
  var saveArmed = false

  init(saveDelay: TimeInterval, resumesAfterForceQuit: Bool = true) {
    self.saveDelay = saveDelay
    self.resumesAfterForceQuit = resumesAfterForceQuit
  }

  var stateFile: URL { application.containerDirectory.appendingPathComponent("Library/state.txt") }
  var documents: URL { application.containerDirectory.appendingPathComponent("Documents", isDirectory: true) }

  func applicationDidFinishLaunching(_ application: SimulatedApplication) {
    self.application = application
    try? FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
    try? FileManager.default.createDirectory(
      at: stateFile.deletingLastPathComponent(), withIntermediateDirectories: true)
    let text = (try? String(contentsOf: stateFile, encoding: .utf8)) ?? ""
    for line in text.split(separator: "\n") {
      let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
      if parts.count == 2 { states[parts[0]] = parts[1] }
    }
    session = application.makeURLSession(
      configuration: .simulatedBackground(withIdentifier: "late-write"), delegate: self, delegateQueue: nil)
  }

  func application(
    _ application: SimulatedApplication, handleEventsForBackgroundURLSession identifier: String,
    completionHandler: @escaping () -> Void
  ) {
    completion = completionHandler
  }
  var completion: (() -> Void)?

  /// The user taps Download.
  func download() {
    guard states[Self.url.lastPathComponent] == nil else { return }
    states[Self.url.lastPathComponent] = "downloading"
    changed()
    session.downloadTask(with: Self.url).resume()
  }

  func urlSession(
    _ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL
  ) {
    let target = documents.appendingPathComponent(Self.url.lastPathComponent)
    try? FileManager.default.removeItem(at: target)
    try? FileManager.default.moveItem(at: location, to: target)
    states[Self.url.lastPathComponent] = "done"
    changed()
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
    guard let error = error as NSError? else { return }
    let key = "NSURLSessionDownloadTaskResumeData"
    if resumesAfterForceQuit, let data = error.userInfo[key] as? Data {
      session.downloadTask(withResumeData: data).resume()
    } else {
      states[Self.url.lastPathComponent] = "failed \(error.code)"
      changed()
    }
  }

  func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
    completion?()
    completion = nil
  }

  func changed() {
    guard saveDelay > 0 else { return save() }
    guard !saveArmed else { return }
    saveArmed = true
    application.after(saveDelay) { [weak self] in
      self?.saveArmed = false
      self?.save()
    }
  }

  func save() {
    let text = states.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)\n" }.joined()
    try? text.write(to: stateFile, atomically: true, encoding: .utf8)
  }

  func userVisibleState() -> String {
    states.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "\n")
  }
}

#if !(canImport(Darwin) && !os(macOS))
  extension LateWriteApp: URLSessionBackgroundEventsDelegate {}
#endif

/// The world: Wi-Fi, one 200 MB file; the user opens the app, taps Download at 1 s, leaves at 2 s.
func lateWriteWorld(duration: SimDuration = .hours(1)) -> ExplorationWorld {
  ExplorationWorld(duration: duration) { seed in
    let server = ServerModel(resources: [
      ServerResource(url: SimURL(LateWriteApp.url.absoluteString)!, size: 200_000_000, etag: "\"v1\"")
    ])
    return Simulation(seed: seed, device: .wifi, server: server)
  } user: { sim in
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { ($0.currentAppDelegate as? LateWriteApp)?.download() }
    sim.schedule(at: SimTime(.seconds(2))) { $0.backgroundApp() }
  }
}
