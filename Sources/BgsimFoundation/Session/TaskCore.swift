import Foundation
import SimKernel
import TransferEngine

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What a bridged download or upload task knows: the engine's task (nil when the bridge refused
/// to create one, e.g. for invalid resume data), the requests, and the Foundation objects it has
/// handed out (kept so every read returns the same object).
final class TaskCore: @unchecked Sendable {
  weak var session: BridgedSession?
  let engine: SimURLSessionTask?
  let originalRequest: URLRequest
  /// The error a refused task completes with.
  let refusal: NSError?
  var refusedState: URLSessionTask.State = .suspended
  var deliveredError: NSError?
  private var cachedResponse: HTTPURLResponse?
  private var cachedStatus: Int?
  private var cachedURL: SimURL?
  private var cachedHeaders: [String: String] = [:]
  /// Validators learnt from resume data, for the response's headers.
  var knownETag: String?
  var knownLastModified: String?
  /// The completion handler of a task made by a convenience factory (`downloadTask(with:completionHandler:)`
  /// and the like): it replaces the delegate's data and completion calls, as in Foundation.
  let handler: TaskHandler?
  /// Whether `urlSession(_:dataTask:didReceive:completionHandler:)` was asked, and whether the
  /// app answered `.cancel` (see `SessionAdapter.responseAllowed`).
  var responseAsked = false
  var responseCancelled = false
  /// Bytes of the response body so far, for a convenience task's handler (`ResponseBody.whole`).
  var receivedBytes: Int64 = 0
  /// What key-value observers last saw (see `TaskObservation`).
  var published = ObservedValues()
  var publishedRequest: URLRequest?
  var publishedResponse: URLResponse?
  var publishedError: Error?
  /// True while `willChangeValue(forKey:)` runs, so the getters answer the old value.
  var showsPublished = false
  /// `URLSessionTask.progress`: byte counts, updated when observers are told of changes. Made on
  /// first use (most apps never ask, and a fleet of tasks would pay for thousands).
  var progress: Progress {
    if let madeProgress { return madeProgress }
    let made = Progress.discreteProgress(totalUnitCount: -1)
    madeProgress = made
    updateProgress()
    return made
  }
  private var madeProgress: Progress?

  /// Sets `progress`'s unit counts (if it was made) to the byte counts observers last saw.
  func updateProgress() {
    guard let madeProgress else { return }
    let isUpload = countOfBytesExpectedToSend > 0
    let total = isUpload ? published.countOfBytesExpectedToSend : published.countOfBytesExpectedToReceive
    let done = isUpload ? published.countOfBytesSent : published.countOfBytesReceived
    if madeProgress.totalUnitCount != total { madeProgress.totalUnitCount = total }
    if madeProgress.completedUnitCount != done { madeProgress.completedUnitCount = done }
  }

  init(
    session: BridgedSession, engine: SimURLSessionTask?, request: URLRequest, refusal: NSError? = nil,
    handler: TaskHandler? = nil
  ) {
    self.session = session
    self.ownerHost = session.process?.host
    self.process = session.process
    self.madeLive = session.process != nil
    self.engine = engine
    self.originalRequest = request
    self.publishedRequest = request
    self.refusal = refusal
    self.handler = handler
  }

  /// The bridge of the process that made the task, kept to name calls after its session is gone.
  private weak var ownerHost: BridgeHost?
  private weak var process: BridgeProcess?
  private let madeLive: Bool
  private var calledAfterSession = false

  /// The task's session, for `resume()` and the like; nil once the app released it (with its
  /// process, or the whole `Simulation`): the call then does nothing and is named once.
  var liveSession: BridgedSession? {
    if let session { return session }
    // The live app released the session object: nothing to name (the engine's task lives on).
    if let process, !process.isDead { return nil }
    guard !calledAfterSession, !ProcessRelease.isUnderWay else { return nil }
    calledAfterSession = true
    if let ownerHost {
      ownerHost.noteCallFromDeadProcess()
    } else if madeLive {
      ProcessRelease.noteCallAfterSimulation(
        "a URLSessionTask (\(originalRequest.url?.absoluteString ?? "?"))")
    }
    return nil
  }

  var taskIdentifier: Int { engine?.taskIdentifier ?? 0 }

  var currentRequest: URLRequest? {
    guard let engine, engine.currentURL != engine.originalURL, let url = URL(string: engine.currentURL.string)
    else {
      return originalRequest
    }
    var request = originalRequest
    request.url = url
    return request
  }

  var state: URLSessionTask.State {
    guard let engine else { return refusedState }
    switch engine.state {
    case .running: return .running
    case .suspended: return .suspended
    case .canceling: return .canceling
    case .completed: return .completed
    }
  }

  var error: Error? {
    if let refusal, refusedState == .completed { return refusal }
    return deliveredError
  }

  /// `HTTPURLResponse` with the status and the headers the bridge knows, once there is a status.
  var response: URLResponse? {
    guard let engine, let status = engine.statusCode else { return nil }
    // Read before each delegate call: the cached object answers unless something it shows changed.
    if let cachedResponse, cachedStatus == status, cachedURL == engine.currentURL,
      cachedHeaders == engine.responseHeaders
    {
      return cachedResponse
    }
    guard let url = URL(string: engine.currentURL.string) else { return nil }
    var headers = engine.responseHeaders
    if headers["Content-Length"] == nil, engine.countOfBytesExpectedToReceive >= 0 {
      headers["Content-Length"] = String(engine.countOfBytesExpectedToReceive)
    }
    if headers["ETag"] == nil, let knownETag { headers["ETag"] = knownETag }
    if headers["Last-Modified"] == nil, let knownLastModified { headers["Last-Modified"] = knownLastModified }
    let response = HTTPURLResponse(
      url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
    cachedResponse = response
    cachedStatus = status
    cachedURL = engine.currentURL
    cachedHeaders = engine.responseHeaders
    return response
  }

  /// The simulation's wall-clock date for time 0 (`Simulation.referenceDate`).
  private var referenceDate: Date {
    session?.host?.simulation?.referenceDate ?? Simulation.defaultReferenceDate
  }

  /// `earliestBeginDate` as the engine holds it.
  var earliestBeginDate: Date? {
    get {
      engine?.earliestBeginDate.map { referenceDate.addingTimeInterval($0.sinceStart.seconds) }
    }
    set {
      guard let engine else { return }
      guard let date = newValue else { return engine.earliestBeginDate = nil }
      if let host = session?.host { host.checkWallClockDate(date, property: "earliestBeginDate") }
      let seconds = date.timeIntervalSince(referenceDate)
      engine.earliestBeginDate = SimTime(.seconds(rounding: seconds.isFinite ? min(max(seconds, 0), 1e9) : 0))
    }
  }

  /// `URLSessionTask.priority`, kept by the engine (0.5 for a task the bridge refused).
  var priority: Float {
    get { Float(engine?.priority ?? 0.5) }
    set { engine?.priority = Double(min(max(newValue, 0), 1)) }
  }

  var countOfBytesExpectedToSend: Int64 {
    if case .upload(_, let size) = engine?.kind { return size }
    return 0
  }
}

/// What the task classes' getters answer: the live value, or while `willChangeValue(forKey:)` runs
/// (Darwin's key-value observing reads the old value then), the value observers last saw.
extension TaskCore {
  var visibleState: URLSessionTask.State { showsPublished ? published.state : state }
  var visibleReceived: Int64 {
    showsPublished ? published.countOfBytesReceived : engine?.countOfBytesReceived ?? 0
  }
  var visibleSent: Int64 { showsPublished ? published.countOfBytesSent : engine?.countOfBytesSent ?? 0 }
  var visibleExpectedToReceive: Int64 {
    showsPublished ? published.countOfBytesExpectedToReceive : engine?.countOfBytesExpectedToReceive ?? -1
  }
  var visibleExpectedToSend: Int64 {
    showsPublished ? published.countOfBytesExpectedToSend : countOfBytesExpectedToSend
  }
  var visibleRequest: URLRequest? { showsPublished ? publishedRequest : currentRequest }
  var visibleResponse: URLResponse? { showsPublished ? publishedResponse : response }
  var visibleError: Error? { showsPublished ? publishedError : error }
}
