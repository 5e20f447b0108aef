import Dispatch
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Downloads podcast episodes in a background `URLSession`, keeps their state in the app's
/// container, and picks up where it left off after the system kills the app or the user
/// force-quits it. Foundation only: the one seam is `makeSession`.
public final class PodcastDownloader: NSObject, URLSessionDownloadDelegate, @unchecked Sendable {
  /// Makes the app's background session (in the app: `URLSession(configuration:
  /// .background(withIdentifier:), delegate:, delegateQueue: nil)`).
  public typealias SessionFactory = (_ identifier: String, _ delegate: URLSessionDelegate) -> URLSession
  /// Runs work later (in the app: `DispatchQueue.main.asyncAfter`).
  public typealias Delay = (_ seconds: TimeInterval, _ work: @escaping () -> Void) -> Void

  public static let sessionIdentifier = "com.example.podcasts.downloads"

  private let store: EpisodeStore
  private let episodes: URL
  private let resumeFolder: URL
  private let delay: Delay
  /// Seconds between a change and the state file being written; 0 writes at once.
  private let saveDelay: TimeInterval
  private var saveScheduled = false
  public private(set) var states: [String: EpisodeState]
  private var session: URLSession!
  /// The system's background-events completion handler, called once events are handled.
  public var backgroundCompletionHandler: (() -> Void)?

  /// `saveDelay` > 0 batches state writes (the planted bug: a write still pending when the
  /// process dies is lost).
  public init(
    container: URL, saveDelay: TimeInterval = 0, delay: @escaping Delay, makeSession: SessionFactory
  ) {
    store = EpisodeStore(container: container)
    episodes = container.appendingPathComponent("Documents/Episodes", isDirectory: true)
    resumeFolder = container.appendingPathComponent("Library/ResumeData", isDirectory: true)
    try? FileManager.default.createDirectory(at: episodes, withIntermediateDirectories: true)
    try? FileManager.default.createDirectory(at: resumeFolder, withIntermediateDirectories: true)
    self.saveDelay = saveDelay
    self.delay = delay
    states = store.load()
    super.init()
    session = makeSession(Self.sessionIdentifier, self)
    resumeInterruptedDownloads()
  }

  /// Starts downloading an episode unless it is already on its way or done.
  public func download(_ url: URL) {
    switch states[url.absoluteString] {
    case .downloading?, .done?: return
    default: break
    }
    let task = session.downloadTask(with: url)
    task.taskDescription = url.absoluteString
    states[url.absoluteString] = .downloading
    stateChanged()
    task.resume()
  }

  /// The local file of a downloaded episode.
  public func file(for url: URL) -> URL? {
    guard case .done(let name)? = states[url.absoluteString] else { return nil }
    return episodes.appendingPathComponent(name)
  }

  /// After a force quit the system cancelled our tasks; their resume data arrives with the
  /// errors at the next launch. Episodes paused earlier resume from the data kept on disk.
  private func resumeInterruptedDownloads() {
    for (key, state) in states.sorted(by: { $0.key < $1.key }) {
      guard case .paused(let name) = state,
        let data = try? Data(contentsOf: resumeFolder.appendingPathComponent(name))
      else { continue }
      let task = session.downloadTask(withResumeData: data)
      task.taskDescription = key
      states[key] = .downloading
      task.resume()
    }
    stateChanged()
  }

  // MARK: URLSessionDownloadDelegate

  public func urlSession(
    _ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL
  ) {
    guard let key = downloadTask.taskDescription, let url = URL(string: key) else { return }
    let name = url.lastPathComponent
    let target = episodes.appendingPathComponent(name)
    try? FileManager.default.removeItem(at: target)
    do {
      try FileManager.default.moveItem(at: location, to: target)
      states[key] = .done(file: name)
    } catch {
      states[key] = .failed(code: -3005)
    }
    stateChanged()
  }

  public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
    guard let error = error as NSError?, let key = task.taskDescription else { return }
    if let data = error.userInfo[resumeDataKey] as? Data {
      let name = "\(URL(string: key)?.lastPathComponent ?? "episode").resume"
      try? data.write(to: resumeFolder.appendingPathComponent(name))
      states[key] = .paused(resumeDataFile: name)
      stateChanged()
      // Force-quit recovery: resume now rather than waiting for the user to tap again.
      resumeInterruptedDownloads()
    } else {
      states[key] = .failed(code: error.code)
      stateChanged()
    }
  }

  public func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
    DispatchQueue.main.async {
      self.backgroundCompletionHandler?()
      self.backgroundCompletionHandler = nil
    }
  }

  // MARK: Persistence

  private func stateChanged() {
    guard saveDelay > 0 else { return store.save(states) }
    guard !saveScheduled else { return }
    saveScheduled = true
    delay(saveDelay) { [weak self] in
      guard let self else { return }
      self.saveScheduled = false
      self.store.save(self.states)
    }
  }

  private var resumeDataKey: String {
    #if canImport(Darwin)
      return NSURLSessionDownloadTaskResumeData
    #else
      return URLSessionDownloadTaskResumeData
    #endif
  }
}
