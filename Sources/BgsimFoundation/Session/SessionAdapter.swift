import Foundation
import SimKernel
@_spi(Bridge) import TransferEngine

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
    _ engineTask: SimURLSessionTask, meanwhile: (() -> Void)? = nil,
    _ work: @escaping (BridgedSession, BridgedTaskObject) -> Void
  ) {
    guard let session else { return }
    let task = session.task(for: engineTask)
    session.deliver(meanwhile: meanwhile) {
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
    let deliveries = host.container.deliveries
    let delivery = host.nextDeliveryNumber()
    let file = deliveries.make(number: delivery, size: location.bytes)
    let taken = AppAnswer<Bool>()
    // While the app runs this call, the simulation's thread makes the URL of the next delivery
    // and sizes its file for the download delivered next: the next one queued, else the one
    // whose transfer ends first. Read here, before the call: the app's calls into the engine
    // may change it meanwhile.
    let nextBytes = location.nextDownloadBytes ?? host.simulation?.likelyNextDownloadBytes
    let next = {
      deliveries.prepareURL(number: delivery + 1)
      if let nextBytes { deliveries.prepare(size: nextBytes) }
    }
    with(downloadTask, meanwhile: next) { s, t in
      // Real time, for files only: a copy the app makes in the call changes status after this.
      let callStart = Int(Date().timeIntervalSince1970) - 1
      if case .download(let handler)? = t.core.handler {
        handler(file.url, t.response, nil)
      } else if let t = t as? URLSessionDownloadTask {
        DelegateCalls.didFinishDownloading(s.delegate, s, t, file.url)
      }
      // Deleted as the call returns, before the work it queued runs, as on a device: a move or a
      // read the app defers (`DispatchQueue.main.async`) finds no file, and the run lints it.
      let fate = deliveries.fate(file)
      taken.set(fate.isTaken)
      // The first deliveries of each process only: the check walks the container.
      if let number = s.process?.number, host.filesOutside.shouldCheck(process: number), fate == .gone {
        switch deliveries.departure(file) {
        case .renamed(let moved)?:
          host.filesOutside.check(
            moved, container: host.container.url, simulation: host.simulation, task: downloadTask.name)
        case .copied(let size)?:
          host.filesOutside.checkCopy(
            size: size, since: callStart, container: host.container.url, simulation: host.simulation,
            task: downloadTask.name)
        case nil: break
        }
      }
      // A file the app moved away leaves nothing to delete (one system call less a download).
      if fate != .gone { deliveries.remove(file) }
    }
    if taken.value == true { location.move(to: "taken by the app") }
    // The call did not run (the process ended first): the file goes all the same.
    if taken.value == nil { deliveries.remove(file) }
  }

  /// `urlSession(_:dataTask:didReceive:completionHandler:)`, once per data or upload task made
  /// without a completion handler, before its body (or its completion when it has no body), at
  /// the instant the engine delivers that: the engine hands a body over whole, so the question
  /// comes when the body has arrived, not when the headers did. False once the app answered
  /// `.cancel`: the body is not delivered and the task completes with -999, traced
  /// `bridge.responseCancelled` (the engine's trace still shows it finished). Any other answer,
  /// or none, lets the body through.
  private func responseAllowed(_ engineTask: SimURLSessionTask) -> Bool {
    guard let bridged = session else { return true }
    let task = bridged.task(for: engineTask)
    let core = task.core
    guard !core.responseAsked else { return !core.responseCancelled }
    guard core.handler == nil, let dataTask = task as? URLSessionDataTask, let response = task.response else {
      return true
    }
    core.responseAsked = true
    let answer = AppAnswer<Bool>()
    bridged.deliver {
      task.publishChanges()
      DelegateCalls.didReceiveResponse(bridged.delegate, bridged, dataTask, response) {
        answer.set($0 != .cancel)
      }
    }
    guard answer.value == false else { return true }
    core.responseCancelled = true
    bridged.host?.simulation?.emitNote(
      "bridge.responseCancelled", [TraceField("task", .string(engineTask.name))])
    return false
  }

  /// The engine's upload progress (per tenth of the body, and at 100%), as Foundation's call;
  /// a task with a completion handler gets none, as before.
  func urlSession(
    _ session: SimURLSession, task: SimURLSessionTask, didSendBodyData bytesSent: Int64,
    totalBytesSent: Int64,
    totalBytesExpectedToSend: Int64
  ) {
    with(task) { s, t in
      guard t.core.handler == nil else { return }
      DelegateCalls.didSendBodyData(s.delegate, s, t, bytesSent, totalBytesSent, totalBytesExpectedToSend)
    }
  }

  /// A data task's body or an upload's response body, in chunks (`ResponseBody`); a task with a
  /// completion handler only counts it, for the handler's one `Data`.
  func urlSession(_ session: SimURLSession, dataTask: SimURLSessionTask, didReceiveData bytes: Int64) {
    guard responseAllowed(dataTask) else { return }
    with(dataTask) { s, t in
      if t.core.handler != nil {
        let (sum, overflow) = t.core.receivedBytes.addingReportingOverflow(max(0, bytes))
        t.core.receivedBytes = overflow ? .max : sum
        return
      }
      guard let t = t as? URLSessionDataTask else { return }
      ResponseBody.deliver(bytes) { DelegateCalls.didReceiveData(s.delegate, s, t, $0) }
    }
  }

  func urlSession(_ session: SimURLSession, task: SimURLSessionTask, didCompleteWithError error: SimURLError?)
  {
    guard let bridged = self.session else { return }
    bridged.host?.enteredFromEngine()
    let foundationTask = bridged.task(for: task)
    var nsError = error.map { bridged.foundationError($0, for: task) }
    if nsError == nil, !responseAllowed(task) {
      nsError = FoundationErrors.error(code: NSURLErrorCancelled, url: URL(string: task.currentURL.string))
    }
    if nsError == nil, let tooLarge = bridged.bodyTooLargeForHandler(foundationTask.core, task) {
      nsError = tooLarge
    }
    foundationTask.core.deliveredError = nsError
    bridged.deliver {
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
    let answer = AppAnswer<Bool>()
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

extension BridgedSession {
  /// The engine's error as Foundation's `NSError`, with resume data in Darwin's format: a
  /// download's under `NSURLSessionDownloadTaskResumeData`, an upload's (iOS 17) under
  /// `NSURLSessionUploadTaskResumeData`.
  func foundationError(_ error: SimURLError, for task: SimURLSessionTask) -> NSError {
    let url = URL(string: task.currentURL.string)
    var data: Data?
    if let resume = error.resumeData, let host {
      data = host.resumeStore.publish(
        resume, container: host.container, iosVersion: host.simulation?.deviceModel.iosVersion ?? .newest,
        request: self.task(for: task).core.originalRequest)
    }
    var isUpload = false
    if case .upload = task.kind { isUpload = true }
    return FoundationErrors.error(
      code: error.code.rawValue, url: url, resumeData: isUpload ? nil : data,
      uploadResumeData: isUpload ? data : nil, cancelReason: error.cancelReason?.rawValue,
      networkUnavailableReason: error.networkUnavailableReason?.rawValue)
  }
}
