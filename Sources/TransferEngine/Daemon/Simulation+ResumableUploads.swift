import SimKernel

/// Resumable uploads (behavior.md, "Resumable uploads"): since iOS 17 URLSession speaks the
/// IETF resumable upload draft, so an upload to a server that speaks it too continues from the
/// bytes the server has after an interruption; to any other server it starts again from zero.
extension Simulation {
  /// The upload can continue where it stopped: the device's URLSession speaks the draft (knob
  /// `resumableUploads`) and so does the server (`resumableUploads` on the resource) [A].
  func uploadResumes(_ task: SimURLSessionTask) -> Bool {
    guard case .upload = task.kind, policy.resumableUploads else { return false }
    return links.server.resource(task.currentURL)?.resumableUploads == true
  }

  /// An upload stopped part-way (interrupted, suspended, paused with its app): it keeps what the
  /// server has when it can resume; otherwise both directions' progress is thrown away, and a
  /// restart that throws body bytes away is traced.
  func uploadStopped(_ task: SimURLSessionTask) {
    if uploadResumes(task) {
      task.bytes.keepUploadBody()
      return
    }
    let sent = task.countOfBytesSent
    task.bytes.discardUploadProgress()
    if sent > 0 {
      emit(
        .taskRestartedFromZero,
        [TraceField("task", .string(task.name)), TraceField("reason", .string("uploadNotResumable"))])
    }
  }
}
