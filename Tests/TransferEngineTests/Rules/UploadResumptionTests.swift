import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// Whether an upload resumes, and what a stopped upload traces, alone: (device, server) ->
/// resumption -> effects, with no `Simulation`.
@Suite("Rule: resumable uploads")
struct UploadResumptionTests {
  static let url = SimURL("https://example.com/up")!

  /// A resource that speaks the draft (`draft` nil: the device's version) or does not (`speaks` false).
  static func resource(speaks: Bool, draft: ResumableUploadDraft?) -> ServerResource {
    var resource = ServerResource(url: url, size: 0)
    resource.resumableUploads = speaks
    resource.resumableUploadDraft = draft
    return resource
  }

  /// (an upload, the device speaks the draft, the device's draft, the server: nil for no resource,
  /// else (speaks, its draft), expected).
  static let table: [(Bool, Bool, ResumableUploadDraft, (Bool, ResumableUploadDraft?)?, UploadResumption)] = [
    (true, true, .v6, (true, nil), .resumes),
    (true, true, .v6, (true, .v6), .resumes),
    (true, true, .v5, (true, .v6), .resumes),
    (true, true, .v6, (true, .v5), .draftMismatch),
    (true, true, .v5, (true, .v3), .draftMismatch),
    (true, true, .v6, (false, .v6), .notResumable),
    (true, true, .v6, nil, .notResumable),
    (true, false, .v6, (true, .v6), .notResumable),
    (false, true, .v6, (true, .v6), .notResumable),
  ]

  @Test(
    "an upload resumes only when both sides speak the draft, the server in the device's version or newer",
    arguments: table)
  func resumption(
    _ isUpload: Bool, _ deviceSpeaks: Bool, _ deviceDraft: ResumableUploadDraft,
    _ server: (Bool, ResumableUploadDraft?)?, _ expected: UploadResumption
  ) {
    var policy = Policy()
    policy.resumableUploads = deviceSpeaks
    policy.resumableUploadDraft = deviceDraft
    let resource = server.map { Self.resource(speaks: $0.0, draft: $0.1) }
    #expect(UploadResumption.of(isUpload: isUpload, policy: policy, resource: resource) == expected)
  }

  /// (resumption, body bytes sent, the reason traced; nil: nothing traced).
  static let restarts: [(UploadResumption, Int64, String?)] = [
    (.resumes, 4096, nil), (.notResumable, 0, nil), (.draftMismatch, 0, nil),
    (.notResumable, 1, "uploadNotResumable"), (.draftMismatch, 4096, "uploadDraftMismatch"),
  ]

  @Test(
    "a stopped upload that sent bytes and cannot resume traces its restart from zero, with why",
    arguments: restarts)
  func restart(_ resumption: UploadResumption, _ sent: Int64, _ reason: String?) {
    let effect = resumption.restartedFromZero(task: "up1", sent: sent)
    #expect(
      effect
        == reason.map {
          .trace(
            .taskRestartedFromZero, [TraceField("task", .string("up1")), TraceField("reason", .string($0))])
        })
  }

  @Test("an upload resume-data API before iOS 17 is linted with the call, the task and the version")
  func unavailable() throws {
    let version = try #require(IOSVersion("16.4"))
    let effect = UploadResumption.unavailableLint(
      "cancel(byProducingResumeData:)", task: "up1", version: version)
    guard case .lint(let rule, let message, let fields) = effect else {
      Issue.record("not a lint: \(effect)")
      return
    }
    #expect(rule == .apiUnavailable)
    #expect(message.contains("cancel(byProducingResumeData:) on upload task 'up1' needs iOS 17"))
    #expect(message.contains("runs iOS 16.4"))
    #expect(
      fields == [
        TraceField("task", .string("up1")), TraceField("api", .string("cancel(byProducingResumeData:)")),
      ])
  }
}
