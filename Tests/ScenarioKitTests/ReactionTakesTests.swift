import Foundation
import SimKernel
import Testing
import TransferEngine

@testable import ScenarioKit

/// A reaction's `takes`: the scripted app's own time in a callback (behavior.md, "The app's own
/// time").
@Suite struct ReactionTakesTests {
  /// Two downloads finish while the app is suspended; `reaction` plays the app's callbacks.
  static func scenario(reaction: String) -> String {
    #"""
    {"name": "t", "duration": "2h",
     "server": {"resources": [{"url": "https://h/a", "size": "20MB"}, {"url": "https://h/b", "size": "20MB"}]},
     "app": {"sessions": [{"identifier": "S"}], "behavior": {"on": [\#(reaction)]}},
     "timeline": [{"at": "0s", "do": "launch"},
                  {"at": "1s", "do": "download", "session": "S", "url": "https://h/a", "name": "a"},
                  {"at": "1s", "do": "download", "session": "S", "url": "https://h/b", "name": "b"},
                  {"at": "2s", "do": "background"}]}
    """#
  }

  static func times(_ result: RunResult, _ kind: String) -> [SimTime] {
    result.trace.events.filter { $0.kind == kind }.map(\.time)
  }

  @Test("takes without do loads; its duration is kept")
  func loads() throws {
    let text = Self.scenario(reaction: #"{"event": "didFinishDownloading", "takes": "8s"}"#)
    let reaction = try #require(try loadScenario(text).app.behavior.reactions.first)
    #expect(reaction.takes == .seconds(8))
    #expect(reaction.actions.isEmpty)
  }

  @Test("within the wake: the second file's callbacks come 8 s after the first's")
  func delays() throws {
    let text = Self.scenario(reaction: #"{"event": "didFinishDownloading", "task": "*", "takes": "8s"}"#)
    let result = ScenarioRunner.run(try loadScenario(text))
    let finishes = Self.times(result, "delegate.didFinishDownloading")
    #expect(finishes.count == 2)
    if finishes.count == 2 { #expect(finishes[1] - finishes[0] == .seconds(8)) }
    #expect(!result.trace.events.contains { $0.kind == "lint" })
  }

  @Test("past the wake's 30 s: the watchdog kills the app and the lint names the callback and task")
  func watchdog() throws {
    let text = Self.scenario(reaction: #"{"event": "didFinishDownloading", "task": "b", "takes": "45s"}"#)
    let result = ScenarioRunner.run(try loadScenario(text))
    let lint = try #require(result.trace.events.first { $0.kind == "lint" })
    #expect(lint["rule"] == .string("slowCallback"))
    #expect(lint["task"] == .string("b"))
    #expect(lint["message"]?.description.contains("didFinishDownloadingTo for 'b' takes 45s") == true)
    #expect(
      result.trace.events.contains { $0.kind == "app.terminate" && $0["reason"] == .string("watchdog") })
    // b's didComplete never came: nothing launched the app again.
    #expect(!result.trace.events.contains { $0.kind == "delegate.didComplete" && $0["task"] == .string("b") })
  }

  @Test(arguments: [
    (
      #"{"event": "didFinishDownloading", "takes": "0s"}"#,
      "s.json: app.behavior.on[0].takes: the time a callback takes must be more than 0 and at most 1d (found 0s)"
    ),
    (
      #"{"event": "didFinishDownloading", "takes": "2d"}"#,
      "s.json: app.behavior.on[0].takes: the time a callback takes must be more than 0 and at most 1d (found 2d)"
    ),
    (
      #"{"event": "didFinishDownloading"}"#,
      "s.json: app.behavior.on[0]: missing required key 'do' (an array of an app action like {\"do\": \"download\", ...})"
    ),
  ])
  func refused(_ reaction: String, _ message: String) {
    let problems = loaderProblems(Self.scenario(reaction: reaction))
    #expect(problems.contains { $0.hasSuffix(message) }, "\(problems)")
  }
}
