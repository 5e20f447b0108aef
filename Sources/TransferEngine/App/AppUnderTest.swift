import SimKernel

/// Why the app process started.
public enum LaunchReason: String, Sendable {
  /// The user opened it.
  case user
  /// The system relaunched it in the background for its background sessions.
  case background
}

/// The app under test, mirroring the `UIApplicationDelegate` methods that matter to background
/// transfers. The scripted app of a scenario is one implementation; a user's own Swift code is
/// another (`Simulation.install(_:)`).
public protocol AppUnderTest: AnyObject {
  /// `application(_:didFinishLaunchingWithOptions:)`: recreate background sessions here.
  func didFinishLaunching(_ app: AppContext, reason: LaunchReason)
  /// `application(_:handleEventsForBackgroundURLSession:completionHandler:)`: store the handler,
  /// recreate the session if needed, and call the handler after `didFinishEvents`.
  func handleEventsForBackgroundURLSession(
    _ app: AppContext, identifier: String, completionHandler: BackgroundCompletionHandler)
  /// The app came to the foreground.
  func willEnterForeground(_ app: AppContext)
  /// The app went to the background.
  func didEnterBackground(_ app: AppContext)
}

extension AppUnderTest {
  public func willEnterForeground(_ app: AppContext) {}
  public func didEnterBackground(_ app: AppContext) {}
}

/// Mirrors the URLSession delegate protocols (session, task, download and data delegates).
public protocol SimURLSessionDelegate: AnyObject {
  /// At most once per tenth of the body while the app runs; `bytesWritten` is the bytes since the
  /// previous call (or since the offset the transfer resumed from), as in Foundation.
  func urlSession(
    _ session: SimURLSession, downloadTask: SimURLSessionTask, didWriteData bytesWritten: Int64,
    totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64)
  /// The file exists only until this returns: move it with `location.move(to:)`.
  func urlSession(
    _ session: SimURLSession, downloadTask: SimURLSessionTask, didFinishDownloadingTo location: DownloadedFile
  )
  /// A data task's body (or an upload's response body) arrived: `bytes` of it, all at once.
  func urlSession(_ session: SimURLSession, dataTask: SimURLSessionTask, didReceiveData bytes: Int64)
  /// An upload's body going out: at most once per tenth of it while the app runs (as
  /// `didWriteData`), and once when it is all sent if the app runs then. Not traced.
  func urlSession(
    _ session: SimURLSession, task: SimURLSessionTask, didSendBodyData bytesSent: Int64,
    totalBytesSent: Int64,
    totalBytesExpectedToSend: Int64)
  /// The download continues from resume data at `fileOffset` of `expectedTotalBytes`.
  func urlSession(
    _ session: SimURLSession, downloadTask: SimURLSessionTask, didResumeAtOffset fileOffset: Int64,
    expectedTotalBytes: Int64)
  /// The task ended: `error` is nil on success (HTTP error statuses included), else the transport error.
  func urlSession(_ session: SimURLSession, task: SimURLSessionTask, didCompleteWithError error: SimURLError?)
  /// The task waits for an allowed interface (default sessions with `waitsForConnectivity`).
  func urlSession(_ session: SimURLSession, taskIsWaitingForConnectivity task: SimURLSessionTask)
  /// Default sessions only: background sessions always follow redirects without asking [A].
  func urlSession(
    _ session: SimURLSession, task: SimURLSessionTask, willPerformHTTPRedirectionTo url: SimURL
  ) -> Bool
  /// Every event the system queued for a woken background session has been delivered: call the
  /// completion handler from `handleEventsForBackgroundURLSession` now.
  func urlSessionDidFinishEvents(forBackgroundURLSession session: SimURLSession)
  /// True plays a delegate that implements `willBeginDelayedRequest`. URLSession asks only a
  /// delegate that responds to the method, so with the default, false, a delayed task starts
  /// without asking and the app is never woken for it.
  var answersDelayedRequests: Bool { get }
  /// `urlSession(_:task:willBeginDelayedRequest:completionHandler:)`: a background task with an
  /// `earliestBeginDate` is ready to start (asked only when `answersDelayedRequests`). The
  /// default answers `.continueLoading`: the task starts with its request as it is.
  func urlSession(
    _ session: SimURLSession, task: SimURLSessionTask, willBeginDelayedRequestTo url: SimURL
  ) -> SimDelayedRequestDisposition
  /// True plays a delegate that implements an authentication-challenge method. With the
  /// default, false, URLSession answers `performDefaultHandling` itself: the app is neither
  /// asked nor woken, and the server's 401 completes the task.
  var answersChallenges: Bool { get }
  /// `urlSession(_:task:didReceive:completionHandler:)`: answer a server's request for a
  /// credential (asked only when `answersChallenges`). The default answers
  /// `performDefaultHandling`, so the server's 401 completes the task.
  func urlSession(
    _ session: SimURLSession, task: SimURLSessionTask, didReceive challenge: SimAuthenticationChallenge
  ) -> SimAuthChallengeDisposition
  /// `urlSession(_:didReceive:completionHandler:)`, asked first for session-level challenges
  /// (NTLM, Negotiate). Nil, the default, plays a delegate without the method: the task-level
  /// method is asked instead, as URLSession does.
  func urlSession(_ session: SimURLSession, didReceive challenge: SimAuthenticationChallenge)
    -> SimAuthChallengeDisposition?
  /// After `finishTasksAndInvalidate()` (once its tasks end) or `invalidateAndCancel()`, after
  /// the last `didComplete`: the session lets its delegate go. The error is nil for an app's own
  /// invalidation, the only kind the engine models.
  func urlSession(_ session: SimURLSession, didBecomeInvalidWithError error: SimURLError?)
}

extension SimURLSessionDelegate {
  public func urlSession(
    _ session: SimURLSession, downloadTask: SimURLSessionTask, didWriteData bytesWritten: Int64,
    totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64
  ) {}
  public func urlSession(
    _ session: SimURLSession, downloadTask: SimURLSessionTask, didFinishDownloadingTo location: DownloadedFile
  ) {}
  /// Ignores the body by default.
  public func urlSession(_ session: SimURLSession, dataTask: SimURLSessionTask, didReceiveData bytes: Int64) {
  }
  public func urlSession(
    _ session: SimURLSession, task: SimURLSessionTask, didSendBodyData bytesSent: Int64,
    totalBytesSent: Int64,
    totalBytesExpectedToSend: Int64
  ) {}
  /// Ignores the resumption by default.
  public func urlSession(
    _ session: SimURLSession, downloadTask: SimURLSessionTask, didResumeAtOffset fileOffset: Int64,
    expectedTotalBytes: Int64
  ) {}
  /// Ignores the completion by default.
  public func urlSession(
    _ session: SimURLSession, task: SimURLSessionTask, didCompleteWithError error: SimURLError?
  ) {}
  /// Ignores the wait by default.
  public func urlSession(_ session: SimURLSession, taskIsWaitingForConnectivity task: SimURLSessionTask) {}
  public func urlSession(
    _ session: SimURLSession, task: SimURLSessionTask, willPerformHTTPRedirectionTo url: SimURL
  ) -> Bool { true }
  /// Does nothing by default, so an app that forgets the handler is caught by the lints.
  public func urlSessionDidFinishEvents(forBackgroundURLSession session: SimURLSession) {}
  public var answersDelayedRequests: Bool { false }
  public func urlSession(
    _ session: SimURLSession, task: SimURLSessionTask, willBeginDelayedRequestTo url: SimURL
  ) -> SimDelayedRequestDisposition { .continueLoading }
  public var answersChallenges: Bool { false }
  public func urlSession(
    _ session: SimURLSession, task: SimURLSessionTask, didReceive challenge: SimAuthenticationChallenge
  ) -> SimAuthChallengeDisposition { .performDefaultHandling }
  public func urlSession(_ session: SimURLSession, didReceive challenge: SimAuthenticationChallenge)
    -> SimAuthChallengeDisposition?
  { nil }
  public func urlSession(_ session: SimURLSession, didBecomeInvalidWithError error: SimURLError?) {}
}

/// The temporary file `didFinishDownloadingTo` hands over; it is deleted when the call returns
/// unless the app moved it.
public final class DownloadedFile {
  /// The download task the file belongs to.
  public let task: SimURLSessionTask
  /// The file's size: the bytes the task received.
  public let bytes: Int64
  /// Where the app moved the file in its container, or nil if it left it to be deleted.
  public private(set) var movedTo: String?
  /// The app group whose shared container holds the file (the session's
  /// `sharedContainerIdentifier`), or nil when it is in the app's own container.
  public let sharedContainer: String?
  /// The size of the next file this round of deliveries hands over (another finished download
  /// queued behind this one), nil when none is: the Foundation bridge sizes that file while the
  /// app runs this call, instead of after it. Where the app's reaction ends that delivery, the
  /// file is simply not used.
  @_spi(Bridge) public let nextDownloadBytes: Int64?
  init(task: SimURLSessionTask, bytes: Int64, sharedContainer: String? = nil, nextDownloadBytes: Int64? = nil)
  {
    self.task = task
    self.bytes = bytes
    self.sharedContainer = sharedContainer
    self.nextDownloadBytes = nextDownloadBytes
  }
  /// `FileManager.moveItem(at:to:)` into the app's container.
  public func move(to path: String) { movedTo = path }
}

/// The completion handler `handleEventsForBackgroundURLSession` hands over. Calling it tells the
/// system the app is done with the session's events; the system then suspends the app.
public final class BackgroundCompletionHandler {
  /// The identifier of the background session whose events were handed over.
  public let identifier: String
  /// Which wake it belongs to; a stale handler's call is still counted but changes nothing.
  let wakeNumber: Int
  unowned let simulation: Simulation
  /// How many times the app called it.
  public private(set) var callCount = 0

  init(identifier: String, wakeNumber: Int, simulation: Simulation) {
    self.identifier = identifier
    self.wakeNumber = wakeNumber
    self.simulation = simulation
  }

  /// Tells the system the app has handled the session's events, as calling the real handler does.
  public func callAsFunction() {
    callCount += 1
    let call = CompletionHandlerCalledRule.Call(session: identifier, wake: wakeNumber, calls: callCount)
    simulation.run { CompletionHandlerCalledRule.apply(call, engine: simulation.engine, into: &$0) }
  }
}
