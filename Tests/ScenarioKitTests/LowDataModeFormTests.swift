import Foundation
import ScenarioKit
import Testing

/// A scripted request's own `allowsConstrainedNetworkAccess` (issue 27, item 6): read by the
/// loader, applied to the task, and traced through the failure's `networkUnavailableReason`.
@Suite("Low Data Mode in the scenario format")
struct LowDataModeFormTests {
  static func scenario(_ value: String) -> String {
    """
    {"name": "l", "device": {"network": [{"at": "0s", "interface": "wifi", "constrained": true}]},
     "server": {"resources": [{"url": "https://example.com/a", "size": "1MB"}]},
     "app": {"sessions": [{"identifier": "S", "kind": "default"}]},
     "timeline": [{"at": "0s", "do": "launch"},
                  {"at": "1s", "do": "download", "session": "S", "url": "https://example.com/a", "name": "a",
                   "allowsConstrainedNetworkAccess": \(value)}]}
    """
  }

  @Test("false keeps the task off Low Data Mode; true leaves the session's setting")
  func requestSetting() throws {
    let strict = ScenarioRunner.run(try loadScenario(Self.scenario("false")))
    let failed = strict.trace.events.first { $0.kind == "task.failed" }
    #expect(failed?["networkUnavailableReason"]?.description == "constrained")
    let loose = ScenarioRunner.run(try loadScenario(Self.scenario("true")))
    #expect(loose.trace.events.contains { $0.kind == "task.finished" })
  }

  @Test("a value that is not a boolean is refused")
  func refused() {
    #expect(
      loaderProblems(Self.scenario(#""no""#)).first?.hasPrefix(
        "s.json: timeline[1].allowsConstrainedNetworkAccess:") == true)
  }
}
