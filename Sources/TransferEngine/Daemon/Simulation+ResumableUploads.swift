import SimKernel

/// Resumable uploads (behavior.md, "Resumable uploads"): since iOS 17 URLSession speaks the
/// IETF resumable upload draft, so an upload to a server that speaks it too continues from the
/// bytes the server has after an interruption; to any other server it starts again from zero.
extension Simulation {
  /// The upload can continue where it stopped: the device's URLSession speaks the draft (knob
  /// `resumableUploads`) and so does the server (`resumableUploads` on the resource) [A], in
  /// the device's interop version or a newer one (`resumableUploadDraft`) [O].
  func uploadResumes(_ task: SimURLSessionTask) -> Bool {
    uploadResumption(task) == .resumes
  }

  /// Whether an upload can continue, and why not.
  enum UploadResumption: Equatable {
    case resumes
    /// Not an upload, or the device or the server does not speak the draft.
    case notResumable
    /// The server speaks only drafts older than the device's: it does not confirm resumption.
    case draftMismatch
  }

  func uploadResumption(_ task: SimURLSessionTask) -> UploadResumption {
    guard case .upload = task.kind, policy.resumableUploads,
      let resource = links.server.resource(task.currentURL), resource.resumableUploads
    else { return .notResumable }
    let device = policy.resumableUploadDraft
    return (resource.resumableUploadDraft ?? device) >= device ? .resumes : .draftMismatch
  }

  /// Upload resume data [A]: from iOS 17, for an upload the server confirmed it can resume,
  /// once its request reached the server (it answered `104` with the upload's URL). Nil
  /// otherwise. The offset is the body bytes the server has.
  func makeUploadResumeData(_ task: SimURLSessionTask) -> ResumeDataContents? {
    guard case .upload(let fromFile, let size) = task.kind, deviceModel.iosVersion.hasUploadResumeData,
      uploadResumes(task), task.statusCode != nil || task.inheritedBytes > 0
    else { return nil }
    return daemon.issueResumeData(
      url: task.currentURL, offset: task.countOfBytesSent, validator: "",
      sessionIdentifier: task.session.identifier,
      upload: UploadResumeInfo(bodySize: size, fromFile: fromFile, draft: policy.resumableUploadDraft))
  }

  /// The app called an upload resume-data API the device's iOS version does not have: lint it;
  /// the call goes on as its plain form (`cancel()`, or no task).
  func lintUploadResumeDataUnavailable(_ call: String, task: String) {
    lint(
      .apiUnavailable,
      "\(call) on upload task '\(task)' needs iOS 17; this device runs iOS \(deviceModel.iosVersion), "
        + "so no resume data is made: check the version (#available) or raise device.iosVersion",
      [TraceField("task", .string(task)), TraceField("api", .string(call))])
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
      let reason = uploadResumption(task) == .draftMismatch ? "uploadDraftMismatch" : "uploadNotResumable"
      emit(
        .taskRestartedFromZero,
        [TraceField("task", .string(task.name)), TraceField("reason", .string(reason))])
    }
  }
}
