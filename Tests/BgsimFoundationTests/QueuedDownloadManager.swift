import BgsimFoundation
import Dispatch
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A download manager in Tiercel's shape, Foundation only: a serial `DispatchQueue` is its
/// delegate queue's `underlyingQueue`, every public method is `queue.async { ... }`, and its task
/// list is saved by a debounced timer through an injected delay function (the seam: on a device
/// `DispatchQueue.asyncAfter`, in a test `SimulatedApplication.after`).
final class QueuedDownloadManager: NSObject, URLSessionDownloadDelegate, URLSessionBackgroundEventsDelegate,
  @unchecked Sendable
{
  let queue = DispatchQueue(label: "com.example.queued.manager")
  let operationQueue = OperationQueue()
  let documents: URL
  let stateFile: URL
  let after: (TimeInterval, @escaping () -> Void) -> Void
  private(set) var session: URLSession!
  /// Live tasks by URL (only looked up, never iterated into output).
  private var tasks: [String: URLSessionDownloadTask] = [:]
  private var saveScheduled = false
  /// `application(_:handleEventsForBackgroundURLSession:)`'s handler, kept on `queue`.
  var backgroundCompletionHandler: (() -> Void)?

  init(container: URL, after: @escaping (TimeInterval, @escaping () -> Void) -> Void) {
    documents = container.appendingPathComponent("Documents", isDirectory: true)
    stateFile = documents.appendingPathComponent("tasks.txt")
    self.after = after
    try? FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
    operationQueue.maxConcurrentOperationCount = 1
    operationQueue.underlyingQueue = queue
  }

  /// Makes the background session (the one seam) and reconciles with the tasks it still has.
  func setUp(
    identifier: String, _ make: (URLSessionConfiguration, URLSessionDelegate, OperationQueue) -> URLSession
  ) {
    session = make(.simulatedBackground(withIdentifier: identifier), self, operationQueue)
    queue.async {
      self.session.getTasksWithCompletionHandler { _, _, downloads in
        for task in downloads {
          if let url = task.originalRequest?.url?.absoluteString { self.tasks[url] = task }
        }
        self.scheduleSave()
      }
    }
  }

  /// Starts a download for each URL not already under way.
  func start(_ urls: [String]) {
    queue.async {
      for url in urls where self.tasks[url] == nil {
        let task = self.session.downloadTask(with: URL(string: url)!)
        self.tasks[url] = task
        task.resume()
      }
      self.scheduleSave()
    }
  }

  /// Saves the task list 0.2 s after the first change of a burst, as Tiercel's debouncer does.
  private func scheduleSave() {
    guard !saveScheduled else { return }
    saveScheduled = true
    after(0.2) {
      self.queue.async {
        self.saveScheduled = false
        let lines = self.tasks.keys.sorted().joined(separator: "\n")
        try? Data(lines.utf8).write(to: self.stateFile)
      }
    }
  }

  func urlSession(
    _ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL
  ) {
    let name = downloadTask.originalRequest?.url?.lastPathComponent ?? "unknown"
    let target = documents.appendingPathComponent(name)
    try? FileManager.default.removeItem(at: target)
    try? FileManager.default.moveItem(at: location, to: target)
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
    if let url = task.originalRequest?.url?.absoluteString { tasks[url] = nil }
    scheduleSave()
  }

  func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
    queue.async {
      let handler = self.backgroundCompletionHandler
      self.backgroundCompletionHandler = nil
      DispatchQueue.main.async { handler?() }
    }
  }
}

/// The app: a manager per launch, its session recreated at every launch.
final class QueuedAppDelegate: SimulatedAppDelegate {
  static let identifier = "com.example.queued"
  let manager: QueuedDownloadManager

  init(_ application: SimulatedApplication) {
    manager = QueuedDownloadManager(container: application.containerDirectory, after: application.after)
  }

  func applicationDidFinishLaunching(_ application: SimulatedApplication) {
    manager.setUp(identifier: Self.identifier) {
      application.makeURLSession(configuration: $0, delegate: $1, delegateQueue: $2)
    }
  }

  func application(
    _ application: SimulatedApplication, handleEventsForBackgroundURLSession identifier: String,
    completionHandler: @escaping () -> Void
  ) {
    let manager = self.manager
    let handler = UncheckedHandler(call: completionHandler)
    manager.queue.async { manager.backgroundCompletionHandler = handler.call }
  }
}

/// Carries a completion handler onto the manager's queue, as Tiercel does with its own.
struct UncheckedHandler: @unchecked Sendable { let call: () -> Void }
