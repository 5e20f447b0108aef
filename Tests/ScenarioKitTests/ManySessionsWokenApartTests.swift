import Foundation
import ScenarioKit
import SimKernel
import Testing
import TransferEngine

/// Scenarios with many background sessions, each woken on its own, and discretionary tasks under
/// network changes that keep them off Wi-Fi, played through the public products: each task
/// starts at its own start date (or with Wi-Fi) and each session is woken for it, in whatever
/// order the sessions were made. The engine looks only at the sessions and queues that can act
/// (`ParkedQueues`, `SessionWorkIndex`); these runs show that it still misses none.
@Suite struct ManySessionsWokenApartTests {
  /// `count` background sessions, one download each, starting 2 minutes apart: the first session
  /// first, or the last first when `reversed`.
  static func sessions(_ count: Int, reversed: Bool) -> String {
    let sessions = (1...count).map { #"{"identifier": "S\#($0)", "kind": "background"}"# }
    let downloads = (1...count).map { i in
      let slot = reversed ? count + 1 - i : i
      return
        #"{"at": "1s", "do": "download", "session": "S\#(i)", "url": "https://cdn.example.com/f", "name": "d-\#(i)", "earliestBegin": "\#(slot * 120)s"}"#
    }
    return """
      {
        "name": "sessions-woken-apart", "duration": "1d",
        "device": {"network": [{"at": "0s", "interface": "wifi", "down": "100Mbps", "latency": "10ms"}]},
        "server": {"resources": [{"url": "https://cdn.example.com/f", "size": "1MB"}]},
        "policy": {"rateLimiter": {"firstDelay": "1s", "growth": 1.0}},
        "app": {"sessions": [\(sessions.joined(separator: ", "))]},
        "timeline": [{"at": "0s", "do": "launch"}, \(downloads.joined(separator: ", ")), {"at": "2s", "do": "background"}],
        "expect": [{"task": "d-*", "all": true, "state": "completed"}]
      }
      """
  }

  @Test(
    "every session starts at its own date and is woken for it, in either order", arguments: [false, true])
  func eachSessionWokenAtItsDate(reversed: Bool) throws {
    let count = 60
    let result = ScenarioRunner.run(try loadScenario(Self.sessions(count, reversed: reversed)))
    #expect(result.runError == nil)
    #expect(result.passed)
    // Each download starts at its start date, in date order.
    let starts = result.trace.events.filter { $0.kind == "task.started" }
    let expected = (1...count).map { slot in reversed ? "d-\(count + 1 - slot)" : "d-\(slot)" }
    #expect(starts.map { "\($0["task"]!)" } == expected)
    #expect(starts.map(\.time) == (1...count).map { SimTime(.seconds(Int64($0) * 120)) })
    // Each session is woken for its own download: one handleEvents each, in the same order.
    let woken = result.trace.events.filter { $0.kind == "delegate.handleEvents" }.map { "\($0["session"]!)" }
    #expect(woken == expected.map { "S" + $0.dropFirst(2) })
  }

  @Test("discretionary tasks wait through network changes that keep them off Wi-Fi and start with it")
  func discretionaryWaitsForWiFi() throws {
    var steps = (0..<40).map { i in
      #"{"at": "\#(i * 60)s", "interface": "\#(i % 2 == 0 ? "cellular" : "none")"}"#
    }
    steps.append(#"{"at": "2400s", "interface": "wifi", "down": "100Mbps", "latency": "10ms"}"#)
    let text = """
      {
        "name": "discretionary-off-wifi", "duration": "1d",
        "device": {"network": [\(steps.joined(separator: ", "))]},
        "server": {"resources": [{"url": "https://cdn.example.com/f", "size": "100KB"}]},
        "app": {"sessions": [{"identifier": "S", "kind": "background", "discretionary": true}]},
        "timeline": [
          {"at": "0s", "do": "launch"},
          {"at": "1s", "do": "download", "session": "S", "url": "https://cdn.example.com/f", "name": "d-{n}", "count": 200},
          {"at": "5s", "do": "background"}
        ],
        "expect": [{"task": "d-*", "all": true, "state": "completed"}]
      }
      """
    let result = ScenarioRunner.run(try loadScenario(text))
    #expect(result.runError == nil)
    #expect(result.passed)
    // Before Wi-Fi each task says once why it waits: Wi-Fi is missing on cellular and with no
    // network alike. (With Wi-Fi, those behind the connection limit say so.)
    let wifi = SimTime(.seconds(2400))
    let deferred = result.trace.events.filter { $0.kind == "task.deferred" && $0.time < wifi }
    #expect(deferred.count == 200)
    #expect(deferred.allSatisfy { "\($0["reason"]!)" == "discretionary" && "\($0["missing"]!)" == "wifi" })
    let starts = result.trace.events.filter { $0.kind == "task.started" }
    #expect(starts.count == 200)
    #expect(starts.first?.time == wifi)
  }
}
