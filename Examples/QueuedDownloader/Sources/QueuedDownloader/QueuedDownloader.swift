import Dispatch
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A download manager in Tiercel's shape, Foundation only. Its state belongs to one serial
/// `queue`, which is also the delegate queue's `underlyingQueue`, so every public call is
/// `queue.async { ... }` and delegate calls arrive on the same queue. The task list is written
/// by a debounced timer (through `delay`, the clock seam) and reconciled at launch with the
/// session's tasks and the files on disk, so a write still pending when the process dies loses
/// nothing. Seams: `makeSession` (the background `URLSession`) and `delay`.
public final class QueuedDownloader: NSObject, URLSessionDownloadDelegate, @unchecked Sendable {
  /// Makes the background session (on a device: `URLSession(configuration:
  /// .background(withIdentifier:), delegate:, delegateQueue:)`).
  public typealias SessionFactory = (
    _ identifier: String, _ delegate: URLSessionDelegate, _ queue: OperationQueue
  )
    -> URLSession
  /// Runs work later (on a device: `QueuedDownloader.dispatchDelay`).
  public typealias Delay = (_ seconds: TimeInterval, _ work: @escaping () -> Void) -> Void

  /// The production clock: `DispatchQueue.asyncAfter`.
  public static func dispatchDelay(_ seconds: TimeInterval, _ work: @escaping () -> Void) {
    let box = UncheckedWork(run: work)
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { box.run() }
  }

  /// The one queue the manager's state is touched on.
  public let queue = DispatchQueue(label: "com.example.queued.downloader")
  private let operationQueue = OperationQueue()
  private let configuration: QueuedDownloaderConfiguration
  private let delay: Delay
  private let files: URL
  private let taskListFile: URL
  private let resumeFolder: URL
  private var session: URLSession!

  /// The user's downloads in the order they asked for them.
  private var order: [String] = []
  private var states: [String: DownloadState] = [:]
  /// URLs not started yet, first to start first.
  private var waiting: [String] = []
  private var running: [String: URLSessionDownloadTask] = [:]
  /// False until the session's surviving tasks are known: nothing new starts before that.
  private var reconciled = false
  private var saveScheduled = false
  /// `application(_:handleEventsForBackgroundURLSession:completionHandler:)`'s handler.
  private var backgroundCompletionHandler: (() -> Void)?

  public init(
    container: URL, configuration: QueuedDownloaderConfiguration = .init(),
    delay: @escaping Delay = dispatchDelay,
    makeSession: SessionFactory
  ) {
    self.configuration = configuration
    self.delay = delay
    files = container.appendingPathComponent("Documents/Downloads", isDirectory: true)
    let library = container.appendingPathComponent("Library/QueuedDownloader", isDirectory: true)
    taskListFile = library.appendingPathComponent("tasks.txt")
    resumeFolder = library.appendingPathComponent("ResumeData", isDirectory: true)
    try? FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
    try? FileManager.default.createDirectory(at: resumeFolder, withIntermediateDirectories: true)
    super.init()
    operationQueue.maxConcurrentOperationCount = 1
    operationQueue.underlyingQueue = queue
    session = makeSession(configuration.sessionIdentifier, self, operationQueue)
    queue.async { self.restore() }
  }

  // MARK: Public calls (each one hops onto `queue`)

  /// Adds downloads to the queue; those already known are left alone.
  public func download(_ urls: [URL]) {
    queue.async {
      for url in urls.map(\.absoluteString) where self.states[url] == nil {
        self.order.append(url)
        self.states[url] = .waiting
        self.waiting.append(url)
      }
      self.startWaiting()
      self.scheduleSave()
    }
  }

  /// The user taps Pause: the download is cancelled with resume data, kept in the container.
  public func pause(_ url: URL) {
    queue.async {
      guard let task = self.running.removeValue(forKey: url.absoluteString) else { return }
      self.states[url.absoluteString] = .paused
      task.cancel { data in
        self.queue.async {
          if let data { self.keepResumeData(data, for: url.absoluteString) }
          self.scheduleSave()
        }
      }
    }
  }

  /// The user taps Resume on a paused or failed download.
  public func resume(_ url: URL) {
    queue.async {
      switch self.states[url.absoluteString] {
      case .paused?, .failed?:
        self.states[url.absoluteString] = .waiting
        self.waiting.insert(url.absoluteString, at: 0)
        self.startWaiting()
        self.scheduleSave()
      default: return
      }
    }
  }

  /// Keeps the system's background-events handler, called once the session's events are handled.
  public func handleEventsForBackgroundSession(completionHandler: @escaping () -> Void) {
    let handler = UncheckedWork(run: completionHandler)
    queue.async { self.backgroundCompletionHandler = handler.run }
  }

  /// Each download and its state, one line each, in the user's order.
  public func summary(_ done: @escaping @Sendable (String) -> Void) {
    queue.async { done(self.summaryLines) }
  }

  /// Like `summary`, for callers already on `queue` or with the manager at rest (a test that
  /// reads it between simulation steps).
  public var summaryLines: String {
    order.map { "\($0): \(states[$0] ?? .waiting)" }.joined(separator: "\n")
  }

  /// The local file of a finished download.
  public func file(for url: URL) -> URL { files.appendingPathComponent(url.lastPathComponent) }

  // MARK: Queue

  /// Starts waiting downloads up to the limit, oldest first.
  private func startWaiting() {
    guard reconciled else { return }
    while running.count < configuration.maxConcurrentDownloads, !waiting.isEmpty {
      start(waiting.removeFirst())
    }
  }

  private func start(_ url: String) {
    guard let address = URL(string: url) else { return }
    let task: URLSessionDownloadTask
    if let data = try? Data(contentsOf: resumeFile(url)), ResumeDataCheck.partialFileExists(data) {
      task = session.downloadTask(withResumeData: data)
    } else {
      task = session.downloadTask(with: address)
    }
    try? FileManager.default.removeItem(at: resumeFile(url))
    task.taskDescription = url
    running[url] = task
    states[url] = .downloading
    task.resume()
  }

  // MARK: Task list

  /// Reads the task list and reconciles it with the session's tasks and the files on disk: the
  /// list may be up to `saveDelay` old, so neither source alone is trusted.
  private func restore() {
    if let text = try? String(contentsOf: taskListFile, encoding: .utf8) {
      for line in text.split(separator: "\n") {
        guard let tab = line.lastIndex(of: "\t"),
          let state = DownloadState(text: line[line.index(after: tab)...])
        else { continue }
        let url = String(line[..<tab])
        guard states[url] == nil else { continue }
        order.append(url)
        states[url] = state
      }
    }
    session.getTasksWithCompletionHandler { _, _, downloads in
      self.queue.async { self.reconcile(with: downloads) }
    }
  }

  private func reconcile(with downloads: [URLSessionDownloadTask]) {
    var live: [String: URLSessionDownloadTask] = [:]
    var orphans: [String] = []
    for task in downloads {
      guard let url = task.taskDescription ?? task.originalRequest?.url?.absoluteString else { continue }
      if states[url] == nil {
        order.append(url)
      }
      live[url] = task
    }
    for url in order {
      if let task = live[url] {
        running[url] = task
        states[url] = .downloading
      } else if running[url] != nil {
        continue
      } else if let address = URL(string: url),
        FileManager.default.fileExists(atPath: file(for: address).path)
      {
        states[url] = .done
      } else if states[url] == .waiting {
        if !waiting.contains(url) { waiting.append(url) }
      } else if states[url] == .downloading {
        orphans.append(url)
      }
    }
    reconciled = true
    startWaiting()
    scheduleSave()
    guard !orphans.isEmpty else { return }
    // A task the list says is running but the session no longer has either finished or was
    // cancelled while the process was gone: the session reports it right after it is recreated
    // (`didFinishDownloadingTo`, or an error with resume data after a force quit). Only what is
    // still unaccounted for after that is started over.
    let unaccounted = orphans
    delay(Self.orphanGrace) {
      self.queue.async {
        for url in unaccounted where self.states[url] == .downloading && self.running[url] == nil {
          self.states[url] = .waiting
          self.waiting.append(url)
        }
        self.startWaiting()
        self.scheduleSave()
      }
    }
  }

  /// Seconds the session gets to report the tasks it ended while the process was gone.
  static let orphanGrace: TimeInterval = 1

  /// Writes the task list `saveDelay` after the first change of a burst.
  private func scheduleSave() {
    guard !saveScheduled else { return }
    saveScheduled = true
    delay(configuration.saveDelay) {
      self.queue.async {
        self.saveScheduled = false
        self.save()
      }
    }
  }

  private func save() {
    // Bug (a): the waiting queue is left out of the list, kept in memory only.
    let kept = order.filter { !(configuration.plantsInMemoryQueue && states[$0] == .waiting) }
    let text = kept.map { "\($0)\t\(states[$0] ?? .waiting)" }.joined(separator: "\n")
    try? Data(text.utf8).write(to: taskListFile, options: .atomic)
  }

  private func resumeFile(_ url: String) -> URL {
    let name = url.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) ? String($0) : "_" }.joined()
    return resumeFolder.appendingPathComponent(name + ".resume")
  }

  private func keepResumeData(_ data: Data, for url: String) {
    try? data.write(to: resumeFile(url), options: .atomic)
  }

  // MARK: URLSessionDownloadDelegate (called on `queue`)

  public func urlSession(
    _ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL
  ) {
    guard let url = downloadTask.taskDescription, let address = URL(string: url) else { return }
    let target = file(for: address)
    try? FileManager.default.removeItem(at: target)
    do {
      try FileManager.default.moveItem(at: location, to: target)
      states[url] = .done
    } catch {
      states[url] = .failed(code: (error as NSError).code)
    }
  }

  public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
    guard let url = task.taskDescription else { return }
    // A report of a task already replaced (a restart after relaunch) changes nothing.
    if let current = running[url], current.taskIdentifier != task.taskIdentifier { return }
    running[url] = nil
    if let error = error as NSError?, states[url] != .paused {
      let resumeData = error.userInfo[resumeDataKey] as? Data
      if let resumeData { keepResumeData(resumeData, for: url) }
      let forceQuit = error.userInfo[backgroundCancelledReasonKey] != nil
      if forceQuit && configuration.plantsForceQuitWaitsForTap {
        // Bug (b): the download sits paused until the user taps Resume.
        states[url] = .paused
      } else if error.code == NSURLErrorCancelled && !forceQuit {
        states[url] = .failed(code: error.code)
      } else {
        // Resume at once, from the error's resume data when its partial file is still there.
        states[url] = .waiting
        waiting.insert(url, at: 0)
      }
    }
    startWaiting()
    scheduleSave()
  }

  public func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
    let handler = backgroundCompletionHandler
    backgroundCompletionHandler = nil
    if let handler {
      let box = UncheckedWork(run: handler)
      DispatchQueue.main.async { box.run() }
    }
  }

  private var resumeDataKey: String {
    #if canImport(Darwin)
      return NSURLSessionDownloadTaskResumeData
    #else
      return URLSessionDownloadTaskResumeData
    #endif
  }

  /// `NSURLErrorBackgroundTaskCancelledReasonKey`, spelled out: corelibs Foundation lacks it.
  private var backgroundCancelledReasonKey: String { "NSURLErrorBackgroundTaskCancelledReasonKey" }
}

/// Carries a closure across a queue hop the compiler cannot prove safe (it runs on one queue).
struct UncheckedWork: @unchecked Sendable { let run: () -> Void }
