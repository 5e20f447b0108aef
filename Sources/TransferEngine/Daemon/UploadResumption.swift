import SimKernel

/// Whether an upload can continue where it stopped, and why not (behavior.md, "Resumable
/// uploads"): since iOS 17 URLSession speaks the IETF resumable upload draft, so an upload to a
/// server that speaks it too continues from the bytes the server has; any other restarts at zero.
enum UploadResumption: Equatable {
  case resumes
  /// Not an upload, or the device or the server does not speak the draft.
  case notResumable
  /// The server speaks only drafts older than the device's: it does not confirm resumption.
  case draftMismatch

  /// An upload (`isUpload`) to `resource` resumes when the device's URLSession speaks the draft
  /// (knob `resumableUploads`) and so does the server (`resumableUploads` on the resource) [A], in
  /// the device's interop version or a newer one (`resumableUploadDraft`) [O].
  static func of(isUpload: Bool, policy: Policy, resource: ServerResource?) -> UploadResumption {
    guard isUpload, policy.resumableUploads, let resource, resource.resumableUploads else {
      return .notResumable
    }
    let device = policy.resumableUploadDraft
    return (resource.resumableUploadDraft ?? device) >= device ? .resumes : .draftMismatch
  }

  /// The trace of an upload that had sent body bytes and starts again from zero, or nil when it
  /// resumes (it keeps what the server has) or had sent nothing.
  func restartedFromZero(task: String, sent: Int64) -> Effect? {
    guard self != .resumes, sent > 0 else { return nil }
    let reason = self == .draftMismatch ? "uploadDraftMismatch" : "uploadNotResumable"
    return .trace(
      .taskRestartedFromZero, [TraceField("task", .string(task)), TraceField("reason", .string(reason))])
  }

  /// The lint for an upload resume-data API (`call`) the device's iOS `version` does not have;
  /// the call goes on as its plain form (`cancel()`, or no task).
  static func unavailableLint(_ call: String, task: String, version: IOSVersion) -> Effect {
    .lint(
      .apiUnavailable,
      "\(call) on upload task '\(task)' needs iOS 17; this device runs iOS \(version), "
        + "so no resume data is made: check the version (#available) or raise device.iosVersion",
      [TraceField("task", .string(task)), TraceField("api", .string(call))])
  }
}

extension Engine {
  /// Whether `task`'s upload can continue where it stopped, against the server as it is now.
  func uploadResumption(_ task: SimURLSessionTask) -> UploadResumption {
    let isUpload = if case .upload = task.kind { true } else { false }
    // The server is asked only about an upload: a download never reads it.
    guard isUpload else { return .notResumable }
    return .of(isUpload: true, policy: policy, resource: links.server.resource(task.currentURL))
  }

  /// Upload resume data [A]: from iOS 17, for an upload the server confirmed it can resume,
  /// once its request reached the server (it answered `104` with the upload's URL). Nil
  /// otherwise. The offset is the body bytes the server has.
  func makeUploadResumeData(_ task: SimURLSessionTask) -> ResumeDataContents? {
    guard case .upload(let fromFile, let size) = task.kind, deviceModel.iosVersion.hasUploadResumeData,
      uploadResumption(task) == .resumes, task.statusCode != nil || task.inheritedBytes > 0
    else { return nil }
    return daemon.issueResumeData(
      url: task.currentURL, offset: task.countOfBytesSent, validator: "",
      sessionIdentifier: task.session.identifier,
      upload: UploadResumeInfo(bodySize: size, fromFile: fromFile, draft: policy.resumableUploadDraft))
  }

  /// An upload stopped part-way (interrupted, suspended, paused with its app): it keeps what the
  /// server has when it can resume; otherwise both directions' progress is thrown away, and a
  /// restart that throws body bytes away is traced.
  func uploadStopped(_ task: SimURLSessionTask, into effects: inout EffectBuffer) {
    let resumption = uploadResumption(task)
    if resumption == .resumes {
      tasks[task].bytes.keepUploadBody()
      return
    }
    let sent = task.countOfBytesSent
    tasks[task].bytes.discardUploadProgress()
    if let trace = resumption.restartedFromZero(task: task.name, sent: sent) { effects.append(trace) }
  }
}
