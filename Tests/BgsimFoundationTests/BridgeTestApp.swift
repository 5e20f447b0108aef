import BgsimFoundation
import Dispatch
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An unmodified Foundation download delegate, as an app would write it: moves every file into
/// Documents, records what it was told, and keeps resume data in the container.
final class PlainDownloadDelegate: NSObject, URLSessionDownloadDelegate, URLSessionBackgroundEventsDelegate,
  @unchecked Sendable
{
  let documents: URL
  var log: [String] = []
  var lastError: NSError?
  var lastResponse: HTTPURLResponse?
  var tasksSeen: [ObjectIdentifier] = []
  var onFinishEvents: (() -> Void)?
  /// The classic bug: move the file from the main queue, after the delegate method returned.
  var defersMove = false
  /// Reads the file instead of moving it: in the call (legitimate) or from the main queue after
  /// the call returned (the classic bug). `bytesRead` is what the read got (nil when it failed).
  enum Read { case inPlace, later }
  var reads: Read?
  /// `reads` for the files of these names only (a round of deliveries has no pause between
  /// files for a test to change `reads`).
  var readsByName: [String: Read] = [:]
  /// Writes 8 KB of 0x41 into each moved file while this is above 0, counting it down.
  var writesInto = 0
  /// Called in `didFinishDownloadingTo` with the session and the file's name, after the move.
  var onFinish: ((URLSession, String) -> Void)?
  var bytesRead: Int?
  /// Seed 001 updates its UI with `DispatchQueue.main.sync` from `didCompleteWithError`.
  var syncsToMainOnCompletion = false

  init(container: URL) {
    documents = container.appendingPathComponent("Documents", isDirectory: true)
    try? FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
  }

  func urlSession(
    _ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL
  ) {
    let size =
      (try? FileManager.default.attributesOfItem(atPath: location.path)[.size] as? NSNumber)??.int64Value
      ?? -1
    let name = downloadTask.originalRequest?.url?.lastPathComponent ?? "unknown"
    let target = documents.appendingPathComponent(name)
    try? FileManager.default.removeItem(at: target)
    if let reads = readsByName[name] ?? reads {
      let read: @Sendable () -> Void = { [weak self] in
        let handle = try? FileHandle(forReadingFrom: location)
        self?.bytesRead = (try? handle?.read(upToCount: 4096))??.count
        try? handle?.close()
      }
      if reads == .inPlace { read() } else { DispatchQueue.main.async { read() } }
    } else if defersMove {
      DispatchQueue.main.async { try? FileManager.default.moveItem(at: location, to: target) }
    } else {
      try? FileManager.default.moveItem(at: location, to: target)
      if writesInto > 0, let handle = try? FileHandle(forWritingTo: target) {
        writesInto -= 1
        try? handle.write(contentsOf: Data(repeating: 0x41, count: 8_192))
        try? handle.close()
      }
    }
    lastResponse = downloadTask.response as? HTTPURLResponse
    tasksSeen.append(ObjectIdentifier(downloadTask))
    log.append("finished \(name) size=\(size)")
    onFinish?(session, name)
  }

  func urlSession(
    _ session: URLSession, downloadTask: URLSessionDownloadTask, didResumeAtOffset fileOffset: Int64,
    expectedTotalBytes: Int64
  ) {
    log.append("resumed at \(fileOffset) of \(expectedTotalBytes)")
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
    tasksSeen.append(ObjectIdentifier(task))
    if syncsToMainOnCompletion { DispatchQueue.main.sync { log.append("on main") } }
    if let error = error as NSError? {
      lastError = error
      if let data = error.userInfo[NSURLSessionDownloadTaskResumeData] as? Data {
        try? data.write(to: documents.appendingPathComponent("resume.data"))
      }
      log.append("failed \(error.domain) \(error.code)")
    } else {
      log.append("completed \((task.response as? HTTPURLResponse)?.statusCode ?? 0)")
    }
  }

  func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
    // Seeds 001 and 004: the completion handler is called from the main queue.
    DispatchQueue.main.async { self.onFinishEvents?() }
  }
}

/// The app delegate: makes the background session at every launch and calls the stored
/// completion handler after the session's events.
final class PlainAppDelegate: SimulatedAppDelegate {
  let application: SimulatedApplication
  let downloads: PlainDownloadDelegate
  var session: URLSession!
  var handler: (() -> Void)?
  let identifier: String
  /// Downloaded when the user launches the app (for runs where no test code can tap a button).
  var startsAtUserLaunch: String?

  init(
    _ application: SimulatedApplication, identifier: String = "com.example.downloads",
    startsAtUserLaunch: String? = nil
  ) {
    self.application = application
    self.identifier = identifier
    self.startsAtUserLaunch = startsAtUserLaunch
    downloads = PlainDownloadDelegate(container: application.containerDirectory)
  }

  func applicationDidFinishLaunching(_ application: SimulatedApplication) {
    session = application.makeURLSession(
      configuration: .simulatedBackground(withIdentifier: identifier), delegate: downloads, delegateQueue: nil
    )
    downloads.onFinishEvents = { [weak self] in
      self?.handler?()
      self?.handler = nil
    }
    if application.launchReason == .user, let url = startsAtUserLaunch { startDownload(url) }
  }

  func application(
    _ application: SimulatedApplication, handleEventsForBackgroundURLSession identifier: String,
    completionHandler: @escaping () -> Void
  ) {
    handler = completionHandler
  }

  func startDownload(_ url: String) {
    session.downloadTask(with: URL(string: url)!).resume()
  }

  func resumeFromSavedData() -> Bool {
    guard let data = try? Data(contentsOf: downloads.documents.appendingPathComponent("resume.data")) else {
      return false
    }
    session.downloadTask(withResumeData: data).resume()
    return true
  }
}
