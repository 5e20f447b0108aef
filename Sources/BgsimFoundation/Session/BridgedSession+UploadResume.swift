import Foundation
import SimKernel
import TransferEngine

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Upload resume data (iOS 17, behavior.md "Upload resume data"): what `uploadTask(withResumeData:)`,
/// its completion-handler form and an upload task's `cancel(byProducingResumeData:)` do on a
/// bridged session. Darwin reaches them through overrides, Linux through `UploadResumeAPI.swift`.
extension BridgedSession {
  /// The name the engine's `apiUnavailable` lint gives the method.
  static let uploadResumeCall = "uploadTask(withResumeData:)"

  /// A task that continues the upload `resumeData` stands for at the server's offset. Data the
  /// bridge cannot use (garbage, a download's, another simulation's, unknown here) makes a task
  /// that fails with -3003 once resumed and traces `bridge.resumeDataRejected`, as a download's
  /// does; before iOS 17 the call is linted `apiUnavailable` whatever the data. With a
  /// `handler`, a background session refuses it (`completionHandlerInBackgroundSession`).
  func uploadTask(resumingFrom resumeData: Data, handler: TaskHandler?) -> URLSessionUploadTask {
    host?.noteActivity()
    let fallback = URLRequest(url: ResumeStore.uploadURL(in: resumeData) ?? BridgedSession.placeholderURL)
    if let handler,
      let refusal = refuseConvenience("uploadTask(withResumeData:completionHandler:)", fallback)
    {
      return refusedUpload(fallback, refusal, handler: handler)
    }
    guard let host, let engine else {
      return refusedUpload(fallback, FoundationErrors.invalidResumeData(url: fallback.url), handler: handler)
    }
    switch host.resumeStore.takeUpload(resumeData, container: host.container) {
    case .failure(let problem):
      host.simulation?.emitNote(
        "bridge.resumeDataRejected",
        [TraceField("session", .string(engine.identifier)), TraceField("problem", .string(problem.name))])
      lintUploadResumeUnavailable(session: engine.identifier)
      return refusedUpload(fallback, FoundationErrors.invalidResumeData(url: fallback.url), handler: handler)
    case .success(let found):
      // The engine lints `apiUnavailable` itself for data it is handed.
      let request = found.request ?? URLRequest(url: found.record.url)
      let made = makeEngineTask(request) { session, _ throws(SimAPIMisuse) in
        try session.uploadTask(withResumeData: found.engineData)
      }
      let core = TaskCore(
        session: self, engine: made.task, request: request, refusal: made.refusal, handler: handler)
      return register(BridgedUploadTask(core: core), core)
    }
  }

  /// The engine's `apiUnavailable` lint for a call the bridge answered without the engine: the
  /// method does not exist before iOS 17.
  private func lintUploadResumeUnavailable(session: String) {
    guard let simulation = host?.simulation, !simulation.deviceModel.iosVersion.hasUploadResumeData else {
      return
    }
    simulation.bridgeLint(
      .apiUnavailable,
      "\(Self.uploadResumeCall) on session '\(session)' needs iOS 17; this device runs iOS "
        + "\(simulation.deviceModel.iosVersion), where the method does not exist: check the version "
        + "(#available) or raise device.iosVersion",
      [TraceField("session", .string(session)), TraceField("api", .string(Self.uploadResumeCall))])
  }
}
