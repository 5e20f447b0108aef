import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A `URLSession` delegate that records each callback, then forwards it to the app's own
/// delegate: pass it where the app passes its delegate, and nothing else changes.
///
/// ```swift
/// let proxy = RecordingSessionDelegate(recorder: recorder, wrapping: downloadManager)
/// let session = URLSession(configuration: .background(withIdentifier: "Episodes"),
///                          delegate: proxy, delegateQueue: nil)
/// ```
///
/// On Darwin, delegate methods the proxy does not record (authentication challenges, metrics,
/// redirects) are forwarded too, through Objective-C message forwarding, and tasks are
/// recorded as they are created (`urlSession(_:didCreateTask:)`, iOS 16 and macOS 13). On
/// Linux, FoundationNetworking has no `didCreateTask`, `taskIsWaitingForConnectivity` or
/// `urlSessionDidFinishEvents`: call `taskCreated(_:in:)` after making a task; the proxy still
/// has the other two (a test harness such as BgsimFoundation calls them) and forwards them to
/// a delegate that declares `RecorderBackgroundEventsForwarding` / `RecorderConnectivityForwarding`.
public final class RecordingSessionDelegate: NSObject, URLSessionDownloadDelegate, URLSessionDataDelegate,
  @unchecked Sendable
{
  /// The recorder each callback is written to.
  public let recorder: BgsimRecorder
  /// The app's delegate; held strongly, as `URLSession` holds its delegate.
  public let wrapped: URLSessionDelegate?
  /// The name a task has in the log; by default `SESSION#TASKIDENTIFIER`, the name bgsim gives
  /// a task its app did not name. `bgsim calibrate`
  /// pairs tasks by session and `taskIdentifier`, so names need not match a scenario's.
  public let taskName: @Sendable (URLSession, URLSessionTask) -> String

  /// A proxy recording to `recorder` and forwarding to `delegate`; `taskName` names tasks in the log.
  public init(
    recorder: BgsimRecorder, wrapping delegate: URLSessionDelegate?,
    taskName: @escaping @Sendable (URLSession, URLSessionTask) -> String = RecordingSessionDelegate
      .defaultTaskName
  ) {
    self.recorder = recorder
    self.wrapped = delegate
    self.taskName = taskName
  }

  /// The session's identifier (background sessions), else its `sessionDescription`, else `default`.
  public static func sessionName(_ session: URLSession) -> String {
    session.configuration.identifier ?? session.sessionDescription ?? "default"
  }

  /// `SESSION#TASKIDENTIFIER`, the name bgsim gives a task its app did not name.
  public static func defaultTaskName(_ session: URLSession, _ task: URLSessionTask) -> String {
    "\(sessionName(session))#\(task.taskIdentifier)"
  }

  /// Records a task the app just made (call it before `resume()` where `didCreateTask` is missing).
  public func taskCreated(_ task: URLSessionTask, in session: URLSession) {
    let kind: BgsimRecorder.TaskKind =
      task is URLSessionUploadTask ? .upload : task is URLSessionDataTask ? .data : .download
    recorder.taskCreated(
      name: taskName(session, task), session: Self.sessionName(session), taskIdentifier: task.taskIdentifier,
      url: task.originalRequest?.url?.absoluteString ?? "", kind: kind)
  }

  /// Body bytes each data or upload task has received so far (see `didReceive`).
  private var bodyBytes: [ObjectIdentifier: Int64] = [:]
  private let bodyLock = NSLock()

  private func addBody(_ task: URLSessionTask, _ bytes: Int) {
    bodyLock.lock()
    bodyBytes[ObjectIdentifier(task), default: 0] += Int64(bytes)
    bodyLock.unlock()
  }

  private func takeBody(_ task: URLSessionTask) -> Int64 {
    bodyLock.lock()
    defer { bodyLock.unlock() }
    return bodyBytes.removeValue(forKey: ObjectIdentifier(task)) ?? 0
  }

  // MARK: Download delegate

  /// Records the delivered file, then forwards the call (the app moves the file there).
  public func urlSession(
    _ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL
  ) {
    recorder.didFinishDownloading(
      task: taskName(session, downloadTask), bytes: downloadTask.countOfBytesReceived,
      description: downloadTask.taskDescription)
    (wrapped as? URLSessionDownloadDelegate)?.urlSession(
      session, downloadTask: downloadTask, didFinishDownloadingTo: location)
  }

  /// Records the progress, then forwards the call.
  public func urlSession(
    _ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64,
    totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64
  ) {
    recorder.didWriteData(
      task: taskName(session, downloadTask), totalBytesWritten: totalBytesWritten,
      totalBytesExpectedToWrite: totalBytesExpectedToWrite)
    #if canImport(ObjectiveC)
      (wrapped as? URLSessionDownloadDelegate)?.urlSession?(
        session, downloadTask: downloadTask, didWriteData: bytesWritten, totalBytesWritten: totalBytesWritten,
        totalBytesExpectedToWrite: totalBytesExpectedToWrite)
    #else
      (wrapped as? URLSessionDownloadDelegate)?.urlSession(
        session, downloadTask: downloadTask, didWriteData: bytesWritten, totalBytesWritten: totalBytesWritten,
        totalBytesExpectedToWrite: totalBytesExpectedToWrite)
    #endif
  }

  /// Records the resumption, then forwards the call.
  public func urlSession(
    _ session: URLSession, downloadTask: URLSessionDownloadTask, didResumeAtOffset fileOffset: Int64,
    expectedTotalBytes: Int64
  ) {
    recorder.didResumeAtOffset(
      task: taskName(session, downloadTask), offset: fileOffset, expectedTotalBytes: expectedTotalBytes)
    #if canImport(ObjectiveC)
      (wrapped as? URLSessionDownloadDelegate)?.urlSession?(
        session, downloadTask: downloadTask, didResumeAtOffset: fileOffset,
        expectedTotalBytes: expectedTotalBytes)
    #else
      (wrapped as? URLSessionDownloadDelegate)?.urlSession(
        session, downloadTask: downloadTask, didResumeAtOffset: fileOffset,
        expectedTotalBytes: expectedTotalBytes)
    #endif
  }

  // MARK: Data delegate (data task bodies, upload response bodies)

  /// Forwarded (on Linux, where no message forwarding would do it) and not recorded.
  public func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    guard let wrapped = wrapped as? URLSessionDataDelegate else { return completionHandler(.allow) }
    #if canImport(ObjectiveC)
      guard let method = wrapped.urlSession(_:dataTask:didReceive:completionHandler:) else {
        return completionHandler(.allow)
      }
      method(session, dataTask, response, completionHandler)
    #else
      wrapped.urlSession(
        session, dataTask: dataTask, didReceive: response, completionHandler: completionHandler)
    #endif
  }

  /// A body comes in pieces; the simulation hands it over whole. So the pieces are summed and
  /// logged as one `delegate.didReceiveData` just before a successful `didComplete` (a failed
  /// task's partial body is not logged: the simulation delivers none).
  public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    addBody(dataTask, data.count)
    #if canImport(ObjectiveC)
      (wrapped as? URLSessionDataDelegate)?.urlSession?(session, dataTask: dataTask, didReceive: data)
    #else
      (wrapped as? URLSessionDataDelegate)?.urlSession(session, dataTask: dataTask, didReceive: data)
    #endif
  }

  // MARK: Task delegate

  /// Records the completion (and a data task's summed body first), then forwards the call.
  public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
    let status = (task.response as? HTTPURLResponse)?.statusCode
    let body = takeBody(task)
    if error == nil, body > 0 { recorder.didReceiveData(task: taskName(session, task), bytes: body) }
    recorder.didComplete(
      task: taskName(session, task), error: error.map(RecordedError.init(urlError:)), status: status)
    #if canImport(ObjectiveC)
      (wrapped as? URLSessionTaskDelegate)?.urlSession?(session, task: task, didCompleteWithError: error)
    #else
      (wrapped as? URLSessionTaskDelegate)?.urlSession(session, task: task, didCompleteWithError: error)
    #endif
  }

  /// Records the wait, then forwards the call.
  public func urlSession(_ session: URLSession, taskIsWaitingForConnectivity task: URLSessionTask) {
    recorder.taskIsWaitingForConnectivity(task: taskName(session, task))
    #if canImport(ObjectiveC)
      (wrapped as? URLSessionTaskDelegate)?.urlSession?(session, taskIsWaitingForConnectivity: task)
    #else
      (wrapped as? RecorderConnectivityForwarding)?.urlSession(session, taskIsWaitingForConnectivity: task)
    #endif
  }

  // MARK: Session delegate

  /// Records the end of the session's events, then forwards the call, so the app calls its completion handler.
  public func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
    recorder.didFinishEvents(session: Self.sessionName(session))
    #if canImport(ObjectiveC)
      wrapped?.urlSessionDidFinishEvents?(forBackgroundURLSession: session)
    #else
      (wrapped as? RecorderBackgroundEventsForwarding)?.urlSessionDidFinishEvents(
        forBackgroundURLSession: session)
    #endif
  }

  /// Records the invalidation, then forwards the call.
  public func urlSession(_ session: URLSession, didBecomeInvalidWithError error: Error?) {
    recorder.didBecomeInvalid(
      session: Self.sessionName(session), error: error.map(RecordedError.init(urlError:)))
    #if canImport(ObjectiveC)
      wrapped?.urlSession?(session, didBecomeInvalidWithError: error)
    #else
      wrapped?.urlSession(session, didBecomeInvalidWithError: error)
    #endif
  }

  #if canImport(ObjectiveC)
    @available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, *)
    public func urlSession(_ session: URLSession, didCreateTask task: URLSessionTask) {
      taskCreated(task, in: session)
      (wrapped as? URLSessionTaskDelegate)?.urlSession?(session, didCreateTask: task)
    }

    // Everything the proxy does not record (challenges, metrics, redirects) goes to the app's delegate.
    public override func responds(to aSelector: Selector!) -> Bool {
      super.responds(to: aSelector) || (wrapped?.responds(to: aSelector) ?? false)
    }

    public override func forwardingTarget(for aSelector: Selector!) -> Any? {
      if let wrapped, wrapped.responds(to: aSelector) { return wrapped }
      return super.forwardingTarget(for: aSelector)
    }
  #endif
}

/// Where Foundation does not declare `urlSessionDidFinishEvents(forBackgroundURLSession:)`
/// (Linux), a delegate that has it declares this conformance so the proxy forwards it.
public protocol RecorderBackgroundEventsForwarding: AnyObject {
  /// The app's own `urlSessionDidFinishEvents(forBackgroundURLSession:)`, forwarded to by the proxy.
  func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession)
}

/// Where Foundation does not declare `urlSession(_:taskIsWaitingForConnectivity:)` (Linux), a
/// delegate that has it declares this conformance so the proxy forwards it.
public protocol RecorderConnectivityForwarding: AnyObject {
  /// The app's own `urlSession(_:taskIsWaitingForConnectivity:)`, forwarded to by the proxy.
  func urlSession(_ session: URLSession, taskIsWaitingForConnectivity task: URLSessionTask)
}

extension RecordedError {
  /// The trace's form of a URLSession error: the `URLError.Code` name, the code, the
  /// background cancel reason and the resume data's offset when the error carries them.
  public init(urlError error: Error) {
    let ns = error as NSError
    let code = ns.code
    self.init(name: Self.codeNames[code] ?? "code\(code)", code: code)
    if let reason = ns.userInfo[NSURLErrorBackgroundTaskCancelledReasonKey] as? Int {
      cancelReason = Self.reasonNames[reason] ?? "reason\(reason)"
    }
    if let data = ns.userInfo["NSURLSessionDownloadTaskResumeData"] as? Data {
      resumeDataOffset = Self.bytesReceived(inResumeData: data)
    }
  }

  /// The `URLError.Code` names the trace uses.
  static let codeNames: [Int: String] = [
    -999: "cancelled", -1001: "timedOut", -1005: "networkConnectionLost", -1009: "notConnectedToInternet",
    -995: "backgroundSessionRequiresSharedContainer", -996: "backgroundSessionInUseByAnotherProcess",
    -997: "backgroundSessionWasDisconnected",
  ]

  static let reasonNames: [Int: String] = [
    0: "userForceQuitApplication", 1: "backgroundUpdatesDisabled", 2: "insufficientSystemResources",
  ]

  /// `NSURLSessionResumeBytesReceived` of Darwin's resume data (a property list), when present.
  static func bytesReceived(inResumeData data: Data) -> Int64? {
    guard let plist = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil),
      let dictionary = plist as? [String: Any]
    else { return nil }
    if let n = dictionary["NSURLSessionResumeBytesReceived"] as? Int64 { return n }
    if let n = dictionary["NSURLSessionResumeBytesReceived"] as? Int { return Int64(n) }
    return (dictionary["NSURLSessionResumeBytesReceived"] as? NSNumber)?.int64Value
  }
}
