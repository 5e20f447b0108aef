import Foundation
import ScenarioKit
import SimKernel
import Testing
import TransferEngine

/// Thousands of background tasks (`beginBackgroundTask`) open when the app's background time
/// runs out, played through the public products. Each expiration handler runs after the one
/// before returned; 6,000 of them in a row used to nest the engine's calls 6,000 deep and
/// overflow the stack, and ending them one by one scanned the open ones each time.
@Suite struct ManyBackgroundTasksTests {
  /// `count` background tasks begun in the foreground; the app then leaves. With
  /// `endsOnExpiry`, each expiration handler ends its task (the default); else none does.
  static func scenario(_ count: Int, endsOnExpiry: Bool, endFirstHalf: Bool) -> String {
    let begins = (1...count).map { #"{"at": "1s", "do": "beginBackgroundTask", "name": "a\#($0)"}"# }
    let ends =
      endFirstHalf
      ? (1...(count / 2)).map { #"{"at": "3s", "do": "endBackgroundTask", "name": "a\#($0 * 2)"}"# } : []
    return """
      {
        "name": "many-background-tasks", "duration": "1h",
        "app": {"sessions": [], "behavior": {"endsBackgroundTasksOnExpiry": \(endsOnExpiry)}},
        "timeline": [{"at": "0s", "do": "launch"}, \((begins + [#"{"at": "2s", "do": "background"}"#] + ends).joined(separator: ", "))]
      }
      """
  }

  /// Loads and plays `scenario(...)`; the run itself must not fail.
  static func run(_ count: Int, endsOnExpiry: Bool, endFirstHalf: Bool) throws -> RunResult {
    let text = scenario(count, endsOnExpiry: endsOnExpiry, endFirstHalf: endFirstHalf)
    let result = ScenarioRunner.run(try ScenarioLoader.load(data: Array(text.utf8), file: "many.json"))
    #expect(result.runError == nil)
    return result
  }

  @Test("6,000 expiration handlers in a row run one after another, and the app is suspended after the last")
  func everyHandlerRuns() throws {
    let count = 6_000
    let result = try Self.run(count, endsOnExpiry: true, endFirstHalf: true)
    let expired = result.trace.events.filter { $0.kind == "app.backgroundTaskExpired" }
    // The even ones were ended at 3 s; the odd ones expire, in the order they were begun.
    #expect(expired.count == count / 2)
    #expect(expired.first?["name"] == .string("a1"))
    #expect(expired.last?["name"] == .string("a\(count - 1)"))
    #expect(expired.map { $0["name"]?.description ?? "" } == (0..<(count / 2)).map { "a\($0 * 2 + 1)" })
    #expect(!result.trace.events.contains { $0.kind == "lint" })
    let last = try #require(result.trace.events.lastIndex { $0.kind == "app.backgroundTaskExpired" })
    #expect(result.trace.events[last...].contains { $0.kind == "app.suspend" })
  }

  @Test("when no handler ends its task, every handler runs, then the watchdog kills the app naming the first")
  func watchdogAfterTheLastHandler() throws {
    let count = 6_000
    let result = try Self.run(count, endsOnExpiry: false, endFirstHalf: false)
    #expect(result.trace.events.filter { $0.kind == "app.backgroundTaskExpired" }.count == count)
    let lints = result.trace.events.filter { $0.kind == "lint" }
    #expect(lints.map { $0["rule"] } == [.string("backgroundTaskNotEnded")])
    #expect(lints.first?["message"]?.description.hasPrefix("background task 'a1' was still open") == true)
    let terminations = result.trace.events.filter { $0.kind == "app.terminate" }
    #expect(terminations.map { $0["reason"] } == [.string("watchdog")])
  }
}
