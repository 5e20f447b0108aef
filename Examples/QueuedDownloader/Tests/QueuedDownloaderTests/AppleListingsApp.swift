import BgsimFoundation
import Dispatch
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Apple's listings from "Downloading Files in the Background" (1-4) and "Pausing and Resuming
/// Downloads" (1-3), as an app delegate. Changed only where the simulation needs it: the session
/// comes from `application.makeURLSession` (with `.simulatedBackground`, the same configuration
/// on Linux), Listing 2's `Date()` is `now()` so a test can give it `application.now`, and
/// Listing 4 reads the handler from `self` (this app delegate is also the session's delegate)
/// instead of `UIApplication.shared.delegate`.
final class AppleListingsAppDelegate: NSObject, SimulatedAppDelegate, URLSessionDownloadDelegate,
  @unchecked Sendable
{
  let application: SimulatedApplication
  /// Listing 2's clock: `{ Date() }` as printed, or `{ application.now }`.
  let now: () -> Date
  var backgroundCompletionHandler: (() -> Void)?
  var resumeData: Data?
  var downloadTask: URLSessionDownloadTask?
  var finishedFiles: [String] = []

  init(_ application: SimulatedApplication, now: @escaping () -> Date) {
    self.application = application
    self.now = now
  }

  // "Downloading Files in the Background", Listing 1.
  private lazy var urlSession: URLSession = {
    let config = URLSessionConfiguration.simulatedBackground(withIdentifier: "MySession")
    config.isDiscretionary = true
    config.sessionSendsLaunchEvents = true
    return application.makeURLSession(configuration: config, delegate: self, delegateQueue: nil)
  }()

  /// "Recreate the session if the app was terminated": at every launch.
  func applicationDidFinishLaunching(_ application: SimulatedApplication) {
    _ = urlSession
  }

  /// Listing 2.
  func startDownload(_ url: URL) {
    let backgroundTask = urlSession.downloadTask(with: url)
    backgroundTask.earliestBeginDate = now().addingTimeInterval(60 * 60)
    backgroundTask.countOfBytesClientExpectsToSend = 200
    backgroundTask.countOfBytesClientExpectsToReceive = 500 * 1024
    backgroundTask.resume()
    downloadTask = backgroundTask
  }

  /// Listing 3.
  func application(
    _ application: SimulatedApplication, handleEventsForBackgroundURLSession identifier: String,
    completionHandler: @escaping () -> Void
  ) {
    backgroundCompletionHandler = completionHandler
  }

  /// Listing 4.
  func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
    DispatchQueue.main.async {
      guard let backgroundCompletionHandler = self.backgroundCompletionHandler else {
        return
      }
      backgroundCompletionHandler()
    }
  }

  /// "Access the file, or move it to a permanent location".
  func urlSession(
    _ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL
  ) {
    let documents = application.containerDirectory.appendingPathComponent("Documents", isDirectory: true)
    let name = downloadTask.originalRequest?.url?.lastPathComponent ?? location.lastPathComponent
    try? FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
    try? FileManager.default.moveItem(at: location, to: documents.appendingPathComponent(name))
    finishedFiles.append(name)
  }

  /// "Pausing and Resuming Downloads", Listing 1.
  func pause() {
    downloadTask?.cancel { resumeDataOrNil in
      guard let resumeData = resumeDataOrNil else {
        // download can't be resumed; remove from UI if necessary
        return
      }
      self.resumeData = resumeData
    }
  }

  /// "Pausing and Resuming Downloads", Listing 2.
  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
    guard let error = error else {
      // Handle success case.
      return
    }
    let userInfo = (error as NSError).userInfo
    if let resumeData = userInfo[resumeDataKey] as? Data {
      self.resumeData = resumeData
    }
    // Perform any other error handling.
  }

  /// "Pausing and Resuming Downloads", Listing 3.
  func resumeDownload() {
    guard let resumeData = resumeData else {
      // inform the user the download can't be resumed
      return
    }
    let downloadTask = urlSession.downloadTask(withResumeData: resumeData)
    downloadTask.resume()
    self.downloadTask = downloadTask
  }

  /// `NSURLSessionDownloadTaskResumeData` (spelled without `NS` in corelibs Foundation).
  private var resumeDataKey: String {
    #if canImport(Darwin)
      return NSURLSessionDownloadTaskResumeData
    #else
      return URLSessionDownloadTaskResumeData
    #endif
  }
}

#if !(canImport(Darwin) && !os(macOS))
  extension AppleListingsAppDelegate: URLSessionBackgroundEventsDelegate {}
#endif
