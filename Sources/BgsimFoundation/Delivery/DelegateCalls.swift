import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Delegate methods Foundation declares on iOS but not on Linux (nor, for the first, on
/// macOS). App code written for iOS has them; a test adapter adds the conformance where the
/// platform lacks it: `extension MyDelegate: URLSessionBackgroundEventsDelegate {}`.
public protocol URLSessionBackgroundEventsDelegate: AnyObject {
  /// Every event queued for the woken background session has been delivered: call the
  /// completion handler from `handleEventsForBackgroundURLSession` now (as on iOS).
  func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession)
}

/// `urlSession(_:taskIsWaitingForConnectivity:)`, which swift-corelibs-foundation lacks.
public protocol URLSessionConnectivityDelegate: AnyObject {
  /// The task waits for an allowed interface (`waitsForConnectivity`), as on Darwin.
  func urlSession(_ session: URLSession, taskIsWaitingForConnectivity task: URLSessionTask)
}

/// One function per delegate call, hiding that Darwin's delegate methods are optional
/// Objective-C requirements and Linux's are Swift requirements with default implementations.
enum DelegateCalls {
  static func didWriteData(
    _ d: URLSessionDelegate?, _ s: URLSession, _ t: URLSessionDownloadTask, _ written: Int64, _ total: Int64,
    _ expected: Int64
  ) {
    guard let d = d as? URLSessionDownloadDelegate else { return }
    #if canImport(Darwin)
      d.urlSession?(
        s, downloadTask: t, didWriteData: written, totalBytesWritten: total,
        totalBytesExpectedToWrite: expected)
    #else
      d.urlSession(
        s, downloadTask: t, didWriteData: written, totalBytesWritten: total,
        totalBytesExpectedToWrite: expected)
    #endif
  }

  static func didResume(
    _ d: URLSessionDelegate?, _ s: URLSession, _ t: URLSessionDownloadTask, _ offset: Int64, _ expected: Int64
  ) {
    guard let d = d as? URLSessionDownloadDelegate else { return }
    #if canImport(Darwin)
      d.urlSession?(s, downloadTask: t, didResumeAtOffset: offset, expectedTotalBytes: expected)
    #else
      d.urlSession(s, downloadTask: t, didResumeAtOffset: offset, expectedTotalBytes: expected)
    #endif
  }

  static func didFinishDownloading(
    _ d: URLSessionDelegate?, _ s: URLSession, _ t: URLSessionDownloadTask, _ location: URL
  ) {
    (d as? URLSessionDownloadDelegate)?.urlSession(s, downloadTask: t, didFinishDownloadingTo: location)
  }

  static func didReceiveData(_ d: URLSessionDelegate?, _ s: URLSession, _ t: URLSessionDataTask, _ data: Data)
  {
    guard let d = d as? URLSessionDataDelegate else { return }
    #if canImport(Darwin)
      d.urlSession?(s, dataTask: t, didReceive: data)
    #else
      d.urlSession(s, dataTask: t, didReceive: data)
    #endif
  }

  /// Asks about a data or upload task's response; `answer` gets the disposition (`.allow` when
  /// the delegate does not implement the method).
  static func didReceiveResponse(
    _ d: URLSessionDelegate?, _ s: URLSession, _ t: URLSessionDataTask, _ response: URLResponse,
    _ answer: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    guard let d = d as? URLSessionDataDelegate else { return answer(.allow) }
    #if canImport(Darwin)
      guard let method = d.urlSession(_:dataTask:didReceive:completionHandler:) else { return answer(.allow) }
      method(s, t, response, answer)
    #else
      d.urlSession(s, dataTask: t, didReceive: response, completionHandler: answer)
    #endif
  }

  static func didSendBodyData(
    _ d: URLSessionDelegate?, _ s: URLSession, _ t: URLSessionTask, _ sent: Int64, _ total: Int64,
    _ expected: Int64
  ) {
    guard let d = d as? URLSessionTaskDelegate else { return }
    #if canImport(Darwin)
      d.urlSession?(
        s, task: t, didSendBodyData: sent, totalBytesSent: total, totalBytesExpectedToSend: expected)
    #else
      d.urlSession(
        s, task: t, didSendBodyData: sent, totalBytesSent: total, totalBytesExpectedToSend: expected)
    #endif
  }

  static func didComplete(_ d: URLSessionDelegate?, _ s: URLSession, _ t: URLSessionTask, _ error: Error?) {
    guard let d = d as? URLSessionTaskDelegate else { return }
    #if canImport(Darwin)
      d.urlSession?(s, task: t, didCompleteWithError: error)
    #else
      d.urlSession(s, task: t, didCompleteWithError: error)
    #endif
  }

  static func didBecomeInvalid(_ d: URLSessionDelegate?, _ s: URLSession, _ error: Error?) {
    guard let d else { return }
    #if canImport(Darwin)
      d.urlSession?(s, didBecomeInvalidWithError: error)
    #else
      d.urlSession(s, didBecomeInvalidWithError: error)
    #endif
  }

  static func didFinishEvents(_ d: URLSessionDelegate?, _ s: URLSession) {
    if let d = d as? URLSessionBackgroundEventsDelegate {
      d.urlSessionDidFinishEvents(forBackgroundURLSession: s)
      return
    }
    #if canImport(Darwin)
      // Part of `URLSessionDelegate` on iOS 7+ and macOS 11+.
      d?.urlSessionDidFinishEvents?(forBackgroundURLSession: s)
    #endif
  }

  static func isWaitingForConnectivity(_ d: URLSessionDelegate?, _ s: URLSession, _ t: URLSessionTask) {
    if let d = d as? URLSessionConnectivityDelegate {
      d.urlSession(s, taskIsWaitingForConnectivity: t)
      return
    }
    #if canImport(Darwin)
      (d as? URLSessionTaskDelegate)?.urlSession?(s, taskIsWaitingForConnectivity: t)
    #endif
  }

  /// Asks about a redirect; `answer` gets the request to follow, or nil to stop.
  static func willRedirect(
    _ d: URLSessionDelegate?, _ s: URLSession, _ t: URLSessionTask, _ response: HTTPURLResponse,
    _ request: URLRequest,
    _ answer: @escaping @Sendable (URLRequest?) -> Void
  ) {
    guard let d = d as? URLSessionTaskDelegate else { return answer(request) }
    #if canImport(Darwin)
      guard let method = d.urlSession(_:task:willPerformHTTPRedirection:newRequest:completionHandler:) else {
        return answer(request)
      }
      method(s, t, response, request, answer)
    #else
      d.urlSession(
        s, task: t, willPerformHTTPRedirection: response, newRequest: request, completionHandler: answer)
    #endif
  }
}
