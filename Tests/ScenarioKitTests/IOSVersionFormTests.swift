import Foundation
import ScenarioKit
import Testing
import TransferEngine

/// `device.iosVersion`, `resumableUploadDraft`, and upload resume data in the scripted app.
@Suite struct IOSVersionFormTests {
  static func scenario(device: String = "{}", policy: String? = nil, resource: String? = nil) -> String {
    let upload = resource ?? #"{"url": "https://example.com/up", "method": "POST", "resumableUploads": true}"#
    return """
      {"name": "x", "device": \(device), \(policy.map { "\"policy\": \($0)," } ?? "")
       "server": {"resources": [\(upload)]}}
      """
  }

  @Test(arguments: [
    ("16", false, ResumableUploadDraft.v3), ("17", true, .v3), ("18", true, .v5), ("18.0", true, .v5),
    ("18.1", true, .v6), ("26", true, .v6),
  ])
  func theVersionSetsTheDefaults(_ version: String, _ resumable: Bool, _ draft: ResumableUploadDraft) throws {
    let s = try loadScenario(Self.scenario(device: #"{"iosVersion": "\#(version)"}"#))
    #expect(s.device.iosVersion == IOSVersion(version))
    #expect(s.policy.resumableUploads == resumable)
    #expect(s.policy.resumableUploadDraft == draft)
    // The same through a policy section that sets other knobs.
    let withPolicy = try loadScenario(
      Self.scenario(device: #"{"iosVersion": "\#(version)"}"#, policy: #"{"backgroundRunTime": "6s"}"#))
    #expect(
      withPolicy.policy.resumableUploads == resumable && withPolicy.policy.resumableUploadDraft == draft)
  }

  @Test func noVersionIsTheNewestAndTodaysDefaults() throws {
    let s = try loadScenario(Self.scenario())
    #expect(s.device.iosVersion == .newest)
    #expect(s.policy == .defaults)
  }

  @Test func explicitKnobsWinOverTheVersion() throws {
    let s = try loadScenario(
      Self.scenario(
        device: #"{"iosVersion": "16"}"#, policy: #"{"resumableUploads": true, "resumableUploadDraft": 5}"#))
    #expect(s.policy.resumableUploads == true && s.policy.resumableUploadDraft == .v5)
    let r = try loadScenario(
      Self.scenario(
        resource:
          #"{"url": "https://example.com/up", "method": "POST", "resumableUploads": true, "resumableUploadDraft": 3}"#
      ))
    #expect(r.server.resources.first?.resumableUploadDraft == .v3)
  }

  @Test(arguments: [
    (#"{"iosVersion": 17}"#, nil, "s.json: device.iosVersion: write the iOS version as a string, \"17\""),
    (#"{"iosVersion": "19"}"#, nil, "s.json: device.iosVersion: '19' is not an iOS version bgsim models"),
    (#"{"iosVersion": "seventeen"}"#, nil, "s.json: device.iosVersion: 'seventeen' is not an iOS version"),
    (
      "{}", #"{"resumableUploadDraft": 4}"#,
      "s.json: policy.resumableUploadDraft: 4 is not an interop version"
    ),
    (
      "{}", #"{"resumableUploadDraft": "6"}"#,
      "s.json: policy.resumableUploadDraft: expected an interop version"
    ),
  ])
  func refused(_ device: String, _ policy: String?, _ message: String) {
    let problems = loaderProblems(Self.scenario(device: device, policy: policy))
    #expect(problems.contains { $0.hasPrefix(message) }, "\(problems)")
  }

  @Test func aDraftNeedsAResumableResource() {
    let problems = loaderProblems(
      Self.scenario(
        resource: #"{"url": "https://example.com/up", "method": "POST", "resumableUploadDraft": 6}"#))
    #expect(
      problems.contains {
        $0.hasPrefix("s.json: server.resources[0].resumableUploadDraft: 'resumableUploadDraft' says")
      },
      "\(problems)")
  }

  static func scripted(version: String) -> String {
    """
    {"name": "x", "duration": "10m", "device": {"iosVersion": "\(version)",
      "network": [{"at": "0s", "interface": "wifi", "up": "8Mbps"}]},
     "server": {"resources": [{"url": "https://example.com/up", "method": "POST", "resumableUploads": true}]},
     "app": {"sessions": [{"identifier": "S", "kind": "background"}]},
     "timeline": [
       {"at": "0s", "do": "launch"},
       {"at": "1s", "do": "upload", "session": "S", "url": "https://example.com/up", "name": "u", "from": "file", "size": "40MB"},
       {"at": "11s", "do": "cancel", "task": "u", "produceResumeData": true},
       {"at": "20s", "do": "resumeFromData", "task": "u", "name": "v"}
     ]}
    """
  }

  @Test func theScriptedAppPausesAndContinuesAnUpload() throws {
    let result = ScenarioRunner.run(try loadScenario(Self.scripted(version: "17")))
    let events = result.trace.events
    let cancelled = try #require(events.first { $0.kind == "task.cancelled" })
    guard case .int(let offset)? = cancelled["resumeDataOffset"] else {
      Issue.record("no resume data: \(cancelled)")
      return
    }
    #expect(offset > 5_000_000)
    let created = try #require(events.first { $0.kind == "task.created" && $0["task"] == .string("v") })
    #expect(created["taskKind"] == .string("upload"))
    let finished = try #require(events.first { $0.kind == "task.finished" && $0["task"] == .string("v") })
    // Only the rest of the 40 MB at 1 MB/s: well under the 40 s the whole body takes.
    #expect(finished.time < SimTime(.seconds(20 + 40)) && finished.time > SimTime(.seconds(20 + 25)))
  }

  @Test func onIOS16TheScriptedCancelIsLintedAndGivesNoData() throws {
    let result = ScenarioRunner.run(try loadScenario(Self.scripted(version: "16")))
    let events = result.trace.events
    #expect(events.contains { $0.kind == "lint" && $0["rule"] == .string("apiUnavailable") })
    #expect(events.contains { $0.kind == "app.resumeDataUnavailable" })
    #expect(!events.contains { $0.kind == "task.created" && $0["task"] == .string("v") })
  }
}
