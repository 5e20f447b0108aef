import ScenarioKit
import Testing
import TransferEngine

/// `resumableUploads` on a server resource and as a policy knob.
@Suite struct ResumableUploadFormTests {
  static func scenario(_ resource: String, policy: String = "{}") -> String {
    """
    {"name": "x", "policy": \(policy), "server": {"resources": [\(resource)]}}
    """
  }

  @Test func anUploadTargetMaySpeakTheDraft() throws {
    let s = try loadScenario(
      Self.scenario(
        #"{"url": "https://example.com/up", "method": "PUT", "resumableUploads": true}"#,
        policy: #"{"resumableUploads": false}"#))
    #expect(s.server.resources.first?.resumableUploads == true)
    #expect(s.policy.resumableUploads == false)
    let plain = try loadScenario(Self.scenario(#"{"url": "https://example.com/up", "method": "POST"}"#))
    #expect(plain.server.resources.first?.resumableUploads == false)
    #expect(plain.policy.resumableUploads == true)
  }

  @Test(arguments: [
    (
      #"{"url": "https://example.com/a", "size": "1MB", "resumableUploads": true}"#,
      "s.json: server.resources[0].resumableUploads: 'resumableUploads' says an upload target speaks the resumable upload draft; this resource is downloaded with GET, so give it \"method\": \"POST\" or \"PUT\", or remove the key"
    ),
    (
      #"{"url": "https://example.com/a", "method": "POST", "resumableUploads": "yes"}"#,
      "s.json: server.resources[0].resumableUploads: expected true or false"
    ),
  ])
  func refused(_ resource: String, _ message: String) {
    let problems = loaderProblems(Self.scenario(resource))
    #expect(problems.contains { $0.hasPrefix(message) }, "\(problems)")
  }
}
