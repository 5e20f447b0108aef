import SimKernel

/// A correct app for the benchmarks: one background session, recreated at every launch (user or
/// background), every file moved, and each `handleEvents` completion handler stored and called
/// from `urlSessionDidFinishEvents`, as Apple's sample does.
///
/// Hooks let a benchmark add its own work at launch and at each completion.
final class BenchmarkApp: AppUnderTest, SimURLSessionDelegate {
  let configuration: SessionConfiguration
  private(set) var session: SimURLSession?
  private var handlers: [String: BackgroundCompletionHandler] = [:]
  /// Called after the session is (re)created at each launch.
  var onLaunch: ((BenchmarkApp, AppContext, LaunchReason) -> Void)?
  /// Called at each `didCompleteWithError`.
  var onComplete: ((BenchmarkApp, SimURLSessionTask, SimURLError?) -> Void)?

  private(set) var userLaunches = 0
  private(set) var backgroundLaunches = 0
  private(set) var handlersCalled = 0
  private(set) var completions = 0
  private(set) var filesMoved = 0

  init(configuration: SessionConfiguration) { self.configuration = configuration }

  func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
    switch reason {
    case .user: userLaunches += 1
    case .background: backgroundLaunches += 1
    }
    session = try! app.makeSession(configuration: configuration, delegate: self)
    onLaunch?(self, app, reason)
  }

  func handleEventsForBackgroundURLSession(
    _ app: AppContext, identifier: String, completionHandler: BackgroundCompletionHandler
  ) {
    handlers[identifier] = completionHandler
  }

  func urlSession(
    _ session: SimURLSession, downloadTask: SimURLSessionTask, didFinishDownloadingTo location: DownloadedFile
  ) {
    location.move(to: "Library/Downloads/\(downloadTask.taskIdentifier)")
    filesMoved += 1
  }

  func urlSession(_ session: SimURLSession, task: SimURLSessionTask, didCompleteWithError error: SimURLError?)
  {
    completions += 1
    onComplete?(self, task, error)
  }

  func urlSessionDidFinishEvents(forBackgroundURLSession session: SimURLSession) {
    if let handler = handlers.removeValue(forKey: session.identifier) {
      handlersCalled += 1
      handler()
    }
  }
}
