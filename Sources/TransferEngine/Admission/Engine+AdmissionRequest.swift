import SimKernel

/// What admission is asked about a task: its facts as an `Admission.Request`, the connection
/// limit of its session, the size a discretionary transfer is judged by.
extension Engine {
  func connectionLimit(_ task: SimURLSessionTask) -> Int {
    connectionLimit(task.session.configuration)
  }

  /// The session's `httpMaximumConnectionsPerHost`, else the policy's.
  func connectionLimit(_ configuration: SessionConfiguration) -> Int {
    configuration.httpMaximumConnectionsPerHost ?? policy.maxConnectionsPerHost
  }

  /// What admission needs to know about `task`, with its pair holding `running` connections.
  func admissionRequest(_ task: SimURLSessionTask, running: Int) -> Admission.Request {
    let session = task.session
    var request = admissionRequest(for: session.configuration)
    request.setTask(
      task.row, sessionAllowsConstrained: session.configuration.allowsConstrainedNetworkAccess,
      asksDelayedRequests: session.asksDelayedRequests, transferSize: discretionarySize(task),
      running: running)
    return request
  }

  /// The session's part of a request (its configuration and connection limit), the task's part
  /// still to be set (`Admission.Request.setTask`).
  func admissionRequest(for configuration: SessionConfiguration) -> Admission.Request {
    Admission.Request(
      configuration: configuration, firstStart: false, earliestBeginDate: nil, createdInBackground: false,
      isDiscretionary: false, running: 0, connectionLimit: connectionLimit(configuration))
  }

  /// The size the system judges a discretionary transfer by (behavior.md, "Discretionary
  /// work"): the app's `countOfBytesClientExpectsToSend` plus `...ToReceive` when it gave
  /// either, else the upload's body, else the resource's size at the server [S]. Zero for a
  /// task that is not discretionary, which never reads it.
  func discretionarySize(_ task: SimURLSessionTask) -> Int64 {
    guard task.isDiscretionary else { return 0 }
    let send = task.countOfBytesClientExpectsToSend
    let receive = task.countOfBytesClientExpectsToReceive
    if send != nil || receive != nil {
      let (sum, overflow) = (send ?? 0).addingReportingOverflow(receive ?? 0)
      return overflow ? .max : sum
    }
    if case .upload(_, let size) = task.kind { return size }
    return links.server.resource(task.currentURL)?.size ?? 0
  }
}

extension Admission.Request {
  /// Sets the task's part of the request from its row, leaving the session's part as it is: the
  /// admission pass keeps one request for a queue and sets this for each task (a request made
  /// per task copied the session's configuration each time). `sessionAllowsConstrained` is the
  /// session's own `allowsConstrainedNetworkAccess`: a request may be stricter, never looser.
  mutating func setTask(
    _ row: UnsafeMutablePointer<TaskParts>, sessionAllowsConstrained: Bool, asksDelayedRequests: Bool,
    transferSize: Int64, running: Int
  ) {
    // Fields read in place: a copy of the whole row or machine costs more than the pass's work.
    firstStart = row.pointee.neverStarted
    earliestBeginDate = row.pointee.earliestBeginDate
    createdInBackground = row.pointee.createdInBackground
    isDiscretionary = row.pointee.isDiscretionary
    self.transferSize = transferSize
    self.running = running
    awaitsDelayedAnswer =
      earliestBeginDate != nil && row.pointee.delayedRequest != .answered && asksDelayedRequests
    configuration.allowsConstrainedNetworkAccess =
      sessionAllowsConstrained && row.pointee.allowsConstrainedNetworkAccess
  }
}
