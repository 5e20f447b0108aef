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
    Admission.Request(
      configuration: task.effectiveConfiguration, firstStart: task.machine.startedAt == nil,
      earliestBeginDate: task.earliestBeginDate, createdInBackground: task.createdInBackground,
      isDiscretionary: task.isDiscretionary, transferSize: discretionarySize(task), running: running,
      connectionLimit: connectionLimit(task), awaitsDelayedAnswer: task.awaitsDelayedRequestAnswer)
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
