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
  private var cachedHeaders: [String: String] = [:]
  /// Validators learnt from resume data, for the response's headers.
  var knownETag: String?
  var knownLastModified: String?

  init(session: BridgedSession, engine: SimURLSessionTask?, request: URLRequest, refusal: NSError? = nil) {
    self.session = session
    self.engine = engine
    self.originalRequest = request
    self.refusal = refusal
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
    guard let status = engine?.statusCode, let engine, let url = URL(string: engine.currentURL.string) else {
      return nil
    }
    if let cachedResponse, cachedStatus == status, cachedHeaders == engine.responseHeaders {
      return cachedResponse
    }
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
      let seconds = date.timeIntervalSince(referenceDate)
      engine.earliestBeginDate = SimTime(.seconds(rounding: seconds.isFinite ? min(max(seconds, 0), 1e9) : 0))
    }
  }

  var countOfBytesExpectedToSend: Int64 {
    if case .upload(_, let size) = engine?.kind { return size }
    return 0
  }
}
