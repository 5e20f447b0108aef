import Foundation
import ScenarioKit
import SimKernel
import Testing

/// A stall fault reads the transfers on its host (with more than eight faults the sessions file
/// active transfers by host): a transfer redirected to another host mid-attempt is found under
/// its new host, not its old.
@Suite struct StallAfterRedirectTests {
  /// With `extra` status faults on host a after the run's work, which only make the faults many.
  static func text(extra: Int) -> String {
    let late = String(
      repeating: #", {"kind": "status", "from": "50m", "to": "51m", "host": "a.example.com", "status": 500}"#,
      count: extra)
    return """
      {"name": "redirect then stall", "duration": "1h",
       "server": {"resources": [
          {"url": "https://a.example.com/f", "size": "1KB", "status": 302, "redirectTo": "https://b.example.com/f"},
          {"url": "https://b.example.com/f", "size": "2GB"}],
        "faults": [{"kind": "stall", "from": "5s", "to": "10s", "host": "b.example.com"},
                   {"kind": "stall", "from": "20s", "to": "21s", "host": "a.example.com"}\(late)]},
       "app": {"sessions": [{"identifier": "S"}]},
       "timeline": [{"at": "0s", "do": "launch"},
                    {"at": "1s", "do": "download", "session": "S", "url": "https://a.example.com/f", "name": "f"}]}
      """
  }

  @Test(arguments: [0, 9])
  func aTransferRedirectedToAnotherHostStallsWithThatHost(extraFaults: Int) throws {
    let result = ScenarioRunner.run(try loadScenario(Self.text(extra: extraFaults)))
    #expect(result.runError == nil)
    let kinds = ["task.redirect", "task.stalled", "task.flowing", "task.finished"]
    let seen = result.trace.events.filter { kinds.contains($0.kind) }.map { "\($0.time) \($0.kind)" }
    #expect(seen == ["1.06s task.redirect", "5s task.stalled", "10s task.flowing", "5m26.12s task.finished"])
  }
}
