import Dispatch
import Foundation
import SimKernel
import TransferEngine

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `bgsim bench explore`'s world: Examples/PodcastDownloader's world (one 300 MB episode on
/// Wi-Fi; the user launches the app, taps Download at 1 s and leaves at 2 s; an hour) with an
/// app shaped like the example's manager, written against Foundation and run through the bridge
/// (the bgsim tool cannot link the example's package). Like the example, it keeps each episode's
/// state in `Library/downloads.json`, moves the file into `Documents/Episodes`, resumes a
/// download a force quit cancelled from the error's resume data, and writes its state file
/// `saveDelay` after a change (the example's planted late write, whose timer adds kill points).
public enum ExploreBenchmarkWorld {
  /// The one episode.
  public static let episode = URL(string: "https://podcasts.example.com/ep42.mp3")!
  /// When the user opens the app at the end of the world.
  public static let duration = SimDuration.hours(1)
  /// Seconds between a change and the state file being written: the example's planted bug.
  public static let saveDelay: TimeInterval = 0.2

  /// A fresh simulation of the world, the app installed and the user's script scheduled.
  public static func make(seed: UInt64) -> Simulation {
    let server = ServerModel(resources: [
      ServerResource(url: SimURL(episode.absoluteString)!, size: 300_000_000, etag: "\"ep42-v1\"")
    ])
    let sim = Simulation(seed: seed, device: .wifi, server: server)
    sim.installApp { application in EpisodeAppDelegate(application, saveDelay: saveDelay) }
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in
      (sim.currentAppDelegate as? EpisodeAppDelegate)?.download(episode)
    }
    sim.schedule(at: SimTime(.seconds(2))) { $0.backgroundApp() }
    return sim
  }

  /// What the user sees: each episode and its state, one line each; nil while the app is not running.
  public static func account(_ sim: Simulation) -> String? {
    (sim.currentAppDelegate as? EpisodeAppDelegate)?.userVisibleState()
  }
}

/// The manager and its app delegate in one: a background session recreated at every launch,
/// each episode's state (`downloading`, `paused FILE`, `done FILE`, `failed CODE`) kept in a
/// JSON file, and the background-events completion handler called from the main queue.
final class EpisodeAppDelegate: NSObject, SimulatedAppDelegate, URLSessionDownloadDelegate,
  URLSessionBackgroundEventsDelegate, @unchecked Sendable
{
  static let sessionIdentifier = "com.example.podcasts.downloads"

  let after: (TimeInterval, @escaping () -> Void) -> Void
  let saveDelay: TimeInterval
  let stateFile: URL
  let episodes: URL
  let resumeFolder: URL
  var states: [String: String] = [:]
  var saveScheduled = false
  var session: URLSession?
  var completionHandler: (() -> Void)?

  init(_ application: SimulatedApplication, saveDelay: TimeInterval) {
    after = application.after
    self.saveDelay = saveDelay
    let container = application.containerDirectory
    stateFile = container.appendingPathComponent("Library/downloads.json")
    episodes = container.appendingPathComponent("Documents/Episodes", isDirectory: true)
    resumeFolder = container.appendingPathComponent("Library/ResumeData", isDirectory: true)
  }

  func applicationDidFinishLaunching(_ application: SimulatedApplication) {
    try? FileManager.default.createDirectory(at: episodes, withIntermediateDirectories: true)
    try? FileManager.default.createDirectory(at: resumeFolder, withIntermediateDirectories: true)
    if let data = try? Data(contentsOf: stateFile),
      let saved = try? JSONDecoder().decode([String: String].self, from: data)
    {
      states = saved
    }
    session = application.makeURLSession(
      configuration: .simulatedBackground(withIdentifier: Self.sessionIdentifier), delegate: self,
      delegateQueue: nil)
    resumePaused()
  }

  func application(
    _ application: SimulatedApplication, handleEventsForBackgroundURLSession identifier: String,
    completionHandler: @escaping () -> Void
  ) { self.completionHandler = completionHandler }

  /// The user's tap: starts the episode unless it is on its way or done.
  func download(_ url: URL) {
    let key = url.absoluteString
    if let state = states[key], state == "downloading" || state.hasPrefix("done") { return }
    guard let task = session?.downloadTask(with: url) else { return }
    task.taskDescription = key
    states[key] = "downloading"
    stateChanged()
    task.resume()
  }

  /// Resumes each paused episode from the resume data kept on disk.
  func resumePaused() {
    for (key, state) in states.sorted(by: { $0.key < $1.key }) where state.hasPrefix("paused ") {
      let name = String(state.dropFirst("paused ".count))
      guard let data = try? Data(contentsOf: resumeFolder.appendingPathComponent(name)),
        let task = session?.downloadTask(withResumeData: data)
      else { continue }
      task.taskDescription = key
      states[key] = "downloading"
      task.resume()
    }
    stateChanged()
  }

  func userVisibleState() -> String {
    states.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "\n")
  }

  func urlSession(
    _ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL
  ) {
    guard let key = downloadTask.taskDescription, let url = URL(string: key) else { return }
    let target = episodes.appendingPathComponent(url.lastPathComponent)
    try? FileManager.default.removeItem(at: target)
    do {
      try FileManager.default.moveItem(at: location, to: target)
      states[key] = "done " + url.lastPathComponent
    } catch {
      states[key] = "failed -3005"
    }
    stateChanged()
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
    guard let error = error as NSError?, let key = task.taskDescription else { return }
    guard let data = error.userInfo[Self.resumeDataKey] as? Data else {
      states[key] = "failed \(error.code)"
      return stateChanged()
    }
    let name = (URL(string: key)?.lastPathComponent ?? "episode") + ".resume"
    try? data.write(to: resumeFolder.appendingPathComponent(name))
    states[key] = "paused " + name
    stateChanged()
    // A force quit's cancellation: resume now rather than wait for the user to tap again.
    resumePaused()
  }

  func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
    DispatchQueue.main.async {
      self.completionHandler?()
      self.completionHandler = nil
    }
  }

  /// Writes the state file at once, or `saveDelay` later (one pending write at a time).
  func stateChanged() {
    guard saveDelay > 0 else { return save() }
    guard !saveScheduled else { return }
    saveScheduled = true
    after(saveDelay) { [weak self] in
      self?.saveScheduled = false
      self?.save()
    }
  }

  func save() {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    guard let data = try? encoder.encode(states) else { return }
    try? data.write(to: stateFile, options: .atomic)
  }

  static var resumeDataKey: String {
    #if canImport(Darwin)
      return NSURLSessionDownloadTaskResumeData
    #else
      return URLSessionDownloadTaskResumeData
    #endif
  }
}
