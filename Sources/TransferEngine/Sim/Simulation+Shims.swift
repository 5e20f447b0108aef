import SimKernel

/// Entries other slices' code still calls by their old names while it is written as `extension
/// Simulation`; each only runs its room. The lead removes them once the callers are rooms too.
extension Simulation {
  /// Runs `rule` with the reused effect buffer, then carries out what it appended.
  func run(_ rule: (inout EffectBuffer) -> Void) {
    var effects = takeEffectBuffer()
    rule(&effects)
    interpret(effects)
  }

  /// The first unlock after a restart (`Rules/DeviceUnlockRule.swift`), from a launch.
  func unlockDevice() { run { DeviceUnlockRule.apply(to: &engine.links, into: &$0) } }

  /// Whether `task`'s upload continues where it stopped (`Daemon/UploadResumption.swift`).
  func uploadResumes(_ task: SimURLSessionTask) -> Bool { engine.uploadResumption(task) == .resumes }

  /// Upload resume data, if the upload can have it (`Engine.makeUploadResumeData`).
  func makeUploadResumeData(_ task: SimURLSessionTask) -> ResumeDataContents? {
    engine.makeUploadResumeData(task)
  }

  /// An upload stopped part-way (`Engine.uploadStopped`).
  func uploadStopped(_ task: SimURLSessionTask) { run { engine.uploadStopped(task, into: &$0) } }

  /// The app called an upload resume-data API its iOS version lacks (`UploadResumption.unavailableLint`).
  func lintUploadResumeDataUnavailable(_ call: String, task: String) {
    run { $0.append(UploadResumption.unavailableLint(call, task: task, version: deviceModel.iosVersion)) }
  }

  /// Brings a running transfer's byte counts up to date (`Engine.settleBytes`).
  func settleBytes(_ task: SimURLSessionTask) { engine.settleBytes(task) }

  /// Puts a waiting task in its queue and tries to start it (`AdmissionPassRule.enqueue`).
  func enqueue(_ task: SimURLSessionTask) {
    run { AdmissionPassRule.enqueue(task, engine: engine, into: &$0) }
  }

  /// The admission pass of one queue (`AdmissionPassRule.apply`).
  func startWaiting(key: String) { run { AdmissionPassRule.apply(key: key, engine: engine, into: &$0) } }

  /// Re-decides every waiting task (`AdmissionPassRule.reevaluateAll`).
  func reevaluateAllWaiting() { run { AdmissionPassRule.reevaluateAll(engine: engine, into: &$0) } }

  /// A connection slot of `task`'s pair is free again (`AdmissionPassRule.releaseConnection`).
  func releaseConnection(of task: SimURLSessionTask, admitting: Bool = true) {
    run { AdmissionPassRule.releaseConnection(of: task, admitting: admitting, engine: engine, into: &$0) }
  }
}
