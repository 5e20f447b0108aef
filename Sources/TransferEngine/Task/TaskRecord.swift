import SimKernel

/// The daemon's facts about one task beyond its phase and bytes: where it is fetching from, the
/// response it got, how it ended, its place in the start order, the connection slot it holds and
/// its two timers.
///
/// Every change goes through one of the methods below, named after the engine input that causes
/// it, so no facade file can set a field on its own. A struct kept in the task and changed in
/// place: no allocation per event.
struct TaskRecord {
  /// `URLSessionTask.state` as the app sees it.
  private(set) var state: SimURLSessionTask.State = .suspended
  /// The URL after the redirects followed so far.
  private(set) var currentURL: SimURL
  /// Redirects followed since the last response that was not a redirect (`ConnectedRule.maxRedirects`).
  private(set) var redirectsInARow = 0
  /// The HTTP status of the response, once there is one.
  private(set) var statusCode: Int?
  /// The response's header values as the server model had them when the response arrived.
  private(set) var responseHead = ResponseHead()
  /// The response's headers (built when asked: most runs never ask).
  var responseHeaders: [String: String] { responseHead.headers }
  /// Set when the task completed with an error.
  private(set) var error: SimURLError?
  /// Why the task was cancelled, when it was.
  private(set) var cancelReason: SimURLError.CancelReason?
  /// Order of `resume()` calls, for fair start order.
  private(set) var resumeSequence = 0
  /// The (session, host) queue whose connection slot the current attempt holds: the host it
  /// started for, which a redirect to another host does not change.
  private(set) var connectionKey: WaitQueue.Key?
  /// The pending `timeoutIntervalForResource` event, from `resume()` to the end.
  private(set) var resourceTimeoutHandle: EventHandle?
  /// When the resource timer fires; while the app keeps the task suspended, the time it had left.
  private(set) var resourceDeadline: SimTime?
  private(set) var resourceTimeLeft: SimDuration?
  /// The pending `timeoutIntervalForRequest` event while the transfer is idle.
  private(set) var requestTimeoutHandle: EventHandle?
  /// The pending progress check (at most one: arming again replaces it; the end cancels it, so
  /// no check outlives the task).
  private(set) var progressCheckHandle: EventHandle?
  /// Resume data this task was created from.
  private(set) var resumeFrom: ResumeDataContents?

  /// Why the resume data this task was made from could not be used; it fails when resumed.
  private(set) var rejectedResumeData: ResumeDataError?

  init(url: SimURL, resumeFrom: ResumeDataContents?) {
    currentURL = url
    self.resumeFrom = resumeFrom
  }

  /// The resume data was already used: it is single use, so the task restarts from 0.
  mutating func resumeDataReused() {
    guard let data = resumeFrom else { return }
    resumeFrom = ResumeDataContents(
      token: data.token, url: data.url, offset: 0, validator: data.validator,
      sessionIdentifier: data.sessionIdentifier, upload: data.upload)
  }

  /// The task was made from resume data this simulation cannot use.
  mutating func resumeDataRejected(_ problem: ResumeDataError) {
    rejectedResumeData = problem
  }

  /// The app's first `resume()`: the `sequence`-th in the simulation, with its resource timer.
  mutating func resumed(sequence: Int, resourceTimer: EventHandle, deadline: SimTime) {
    state = .running
    resumeSequence = sequence
    resourceTimeoutHandle = resourceTimer
    resourceDeadline = deadline
  }

  /// The app's `suspend()` stopped the task at `now`: the resource timer stops with the time it
  /// had left (a suspended task is not subject to timeouts [A]); returns both timers for the
  /// caller to cancel.
  mutating func suspendedByApp(at now: SimTime) -> (resource: EventHandle?, request: EventHandle?) {
    defer {
      resourceTimeoutHandle = nil
      requestTimeoutHandle = nil
      resourceDeadline = nil
    }
    state = .suspended
    if let deadline = resourceDeadline { resourceTimeLeft = deadline > now ? deadline - now : .zero }
    return (resourceTimeoutHandle, requestTimeoutHandle)
  }

  /// The app's `resume()` ended the suspension: the resource timer runs again for the time it
  /// had left (`timer`, armed by the caller for `resourceTimeLeft`, due at `deadline`).
  mutating func resumedByApp(resourceTimer: EventHandle, deadline: SimTime) {
    state = .running
    resourceTimeoutHandle = resourceTimer
    resourceDeadline = deadline
    resourceTimeLeft = nil
  }

  /// Admission let an attempt start.
  mutating func admitted() {
    state = .running
  }

  /// The attempt took a connection slot of the queue `key`.
  mutating func tookConnection(_ key: WaitQueue.Key) {
    connectionKey = key
  }

  /// `willBeginDelayedRequest` answered `useNewRequest`: the task fetches the new URL. Called
  /// through `TaskParts.requestReplaced(by:)`, which keeps the session's active transfers by host.
  mutating func requestReplaced(by url: SimURL) {
    currentURL = url
  }

  /// A redirect was followed. Called through `TaskParts.redirected(to:)`, which keeps the
  /// session's active transfers by host.
  mutating func redirected(to url: SimURL) {
    currentURL = url
    redirectsInARow += 1
  }

  /// A response that is not a followed redirect arrived.
  mutating func responded(status: Int, head: ResponseHead) {
    redirectsInARow = 0
    statusCode = status
    responseHead = head
  }

  /// The transfer went idle: `timer` fires at `timeoutIntervalForRequest`.
  mutating func idleTimerStarted(_ timer: EventHandle) {
    requestTimeoutHandle = timer
  }

  /// The transfer is no longer idle; returns the request timer for the caller to cancel.
  mutating func idleTimerStopped() -> EventHandle? {
    defer { requestTimeoutHandle = nil }
    return requestTimeoutHandle
  }

  /// The resource timer fired, so there is none left to cancel.
  mutating func resourceTimerFired() {
    resourceTimeoutHandle = nil
    resourceDeadline = nil
  }

  /// The task's life ended; returns its pending timers for the caller to cancel.
  mutating func ended() -> (resource: EventHandle?, request: EventHandle?, progress: EventHandle?) {
    defer {
      resourceTimeoutHandle = nil
      requestTimeoutHandle = nil
      progressCheckHandle = nil
      resourceDeadline = nil
    }
    state = .completed
    return (resourceTimeoutHandle, requestTimeoutHandle, progressCheckHandle)
  }

  /// A new progress check is pending; returns the one it replaces.
  mutating func progressCheckArmed(_ handle: EventHandle) -> EventHandle? {
    defer { progressCheckHandle = handle }
    return progressCheckHandle
  }

  /// The task failed with a transport error.
  mutating func failed(_ error: SimURLError) {
    self.error = error
  }

  /// The task was cancelled (`reason` nil for the app's own `cancel()`).
  mutating func cancelled(reason: SimURLError.CancelReason?, error: SimURLError) {
    state = .completed
    cancelReason = reason
    self.error = error
  }
}

/// The header values of a response the server model gave, kept as values: a response is
/// recorded at every connection, and a dictionary of strings for each would cost more than the
/// rest of the connection's bookkeeping.
struct ResponseHead: Equatable {
  /// Nil when the server has no such resource (no headers at all).
  var contentLength: Int64?
  var etag: String?
  var lastModified: String?
  var acceptsRanges = false

  /// `Content-Length`, `ETag`, `Last-Modified` and `Accept-Ranges`, as `HTTPURLResponse` lists them.
  var headers: [String: String] {
    guard let contentLength else { return [:] }
    var headers = [
      "Content-Length": String(contentLength), "Accept-Ranges": acceptsRanges ? "bytes" : "none",
    ]
    if let etag { headers["ETag"] = etag }
    if let lastModified { headers["Last-Modified"] = lastModified }
    return headers
  }
}
