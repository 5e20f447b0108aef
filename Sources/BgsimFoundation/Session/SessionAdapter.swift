import Foundation
import SimKernel
import TransferEngine

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Receives the engine's delegate calls for one bridged session and hands them to the app's
/// Foundation delegate on its delegate queue, with Foundation's types.
final class SessionAdapter: SimURLSessionDelegate, @unchecked Sendable {
  weak var session: BridgedSession?
  init(session: BridgedSession) { self.session = session }

  /// Delivers `work` for a task on the delegate queue, after telling observers what changed.
  private func with(
    _ engineTask: SimURLSessionTask, _ work: @escaping (BridgedSession, BridgedTaskObject) -> Void
  ) {
    guard let session else { return }
    let task = session.task(for: engineTask)
    session.deliver {
      task.publishChanges()
      work(session, task)
    }
  }

  func urlSession(
    _ session: SimURLSession, downloadTask: SimURLSessionTask, didWriteData bytesWritten: Int64,
    totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64
  ) {
    with(downloadTask) { s, t in
      guard t.core.handler == nil, let t = t as? URLSessionDownloadTask else { return }
      DelegateCalls.didWriteData(s.delegate, s, t, bytesWritten, totalBytesWritten, totalBytesExpectedToWrite)
    }
  }

  func urlSession(
    _ session: SimURLSession, downloadTask: SimURLSessionTask, didResumeAtOffset fileOffset: Int64,
    expectedTotalBytes: Int64
  ) {
    with(downloadTask) { s, t in
      guard t.core.handler == nil, let t = t as? URLSessionDownloadTask else { return }
      DelegateCalls.didResume(s.delegate, s, t, fileOffset, expectedTotalBytes)
    }
  }

  /// A real file, sparse, deleted when the call returns. The app must move it, or read it, in the
  /// call: either counts as taking it; otherwise the engine lints `downloadedFileLost`.
  func urlSession(
    _ session: SimURLSession, downloadTask: SimURLSessionTask, didFinishDownloadingTo location: DownloadedFile
  ) {
    guard let bridged = self.session, let host = bridged.host else { return }
    let (file, path) = host.container.deliveries.make(number: host.nextDeliveryNumber(), size: location.bytes)
    let taken = AppAnswer()
    with(downloadTask) { s, t in
      if case .download(let handler)? = t.core.handler {
        handler(file, t.response, nil)
      } else if let t = t as? URLSessionDownloadTask {
        DelegateCalls.didFinishDownloading(s.delegate, s, t, file)
      }
      // Deleted as the call returns, before the work it queued runs, as on a device: a move or a
      // read the app defers (`DispatchQueue.main.async`) finds no file, and the run lints it.
      taken.set(DeliveryFiles.wasTaken(path))
      AppContainer.remove(atPath: path)
    }
    if taken.value == true { location.move(to: "taken by the app") }
    // The call did not run (the process ended first): the file goes all the same.
    if taken.value == nil { AppContainer.remove(atPath: path) }
  }

  func urlSession(_ session: SimURLSession, dataTask: SimURLSessionTask, didReceiveData bytes: Int64) {
    let data = Data(count: Int(clamping: min(max(bytes, 0), 1 << 24)))
    with(dataTask) { s, t in
      s.reportBodySent(t, t.core)
      if t.core.handler != nil { return t.core.receivedBody.append(data) }
      guard let t = t as? URLSessionDataTask else { return }
      DelegateCalls.didReceiveData(s.delegate, s, t, data)
    }
  }

  func urlSession(_ session: SimURLSession, task: SimURLSessionTask, didCompleteWithError error: SimURLError?)
  {
    guard let bridged = self.session else { return }
    bridged.host?.enteredFromEngine()
    let foundationTask = bridged.task(for: task)
    let nsError = error.map { bridged.foundationError($0, for: task) }
    foundationTask.core.deliveredError = nsError
    bridged.deliver {
      bridged.reportBodySent(foundationTask, foundationTask.core)
      foundationTask.publishChanges()
      bridged.complete(foundationTask, foundationTask.core, nsError)
    }
  }

  func urlSession(_ session: SimURLSession, taskIsWaitingForConnectivity task: SimURLSessionTask) {
    with(task) { s, t in DelegateCalls.isWaitingForConnectivity(s.delegate, s, t) }
  }

  func urlSession(_ session: SimURLSession, task: SimURLSessionTask, willPerformHTTPRedirectionTo url: SimURL)
    -> Bool
  {
    guard let bridged = self.session, let target = URL(string: url.string),
      let from = URL(string: task.currentURL.string),
      let response = HTTPURLResponse(
        url: from, statusCode: 302, httpVersion: "HTTP/1.1", headerFields: ["Location": url.string])
    else { return true }
    let answer = AppAnswer()
    let foundationTask = bridged.task(for: task)
    bridged.deliver {
      DelegateCalls.willRedirect(bridged.delegate, bridged, foundationTask, response, URLRequest(url: target))
      {
        answer.set($0 != nil)
      }
    }
    return answer.value ?? true
  }

  func urlSession(_ session: SimURLSession, didBecomeInvalidWithError error: SimURLError?) {
    guard let bridged = self.session else { return }
    bridged.host?.enteredFromEngine()
    bridged.becameInvalid()
  }

  func urlSessionDidFinishEvents(forBackgroundURLSession session: SimURLSession) {
    guard let bridged = self.session else { return }
    bridged.host?.enteredFromEngine()
    bridged.deliver { DelegateCalls.didFinishEvents(bridged.delegate, bridged) }
  }
}

/// A yes/no the app's code gives on the delegate queue, read by the bridge after the drain.
final class AppAnswer: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Bool?
  func set(_ follow: Bool) {
    lock.lock()
    stored = follow
    lock.unlock()
  }
  var value: Bool? {
    lock.lock()
    defer { lock.unlock() }
    return stored
  }
}

extension BridgedSession {
  /// The engine's error as Foundation's `NSError`, with resume data in Darwin's format.
  func foundationError(_ error: SimURLError, for task: SimURLSessionTask) -> NSError {
    let url = URL(string: task.currentURL.string)
    var data: Data?
    if let resume = error.resumeData, let host {
      data = host.resumeStore.publish(resume, temporaryDirectory: host.container.temporaryDirectory)
    }
    return FoundationErrors.error(
      code: error.code.rawValue, url: url, resumeData: data, cancelReason: error.cancelReason?.rawValue)
  }
}
