import Foundation
import ScenarioKit
import SimKernel
import Testing
import TransferEngine

/// App extensions (behavior.md, "App extensions"): a process of their own, shared containers,
/// -995 and -996, and their sessions' events going to the containing app.
@Suite struct AppExtensionTests {
  /// A scenario with one extension, `Share`, whose sessions are `extensionSessions`.
  static func scenario(
    extensionSessions: String = #"[{"identifier": "ShareUploads", "sharedContainerIdentifier": "group.x"}]"#,
    appSessions: String = #"[{"identifier": "Own"}]"#, policy: String = "{}", timeline: String
  ) -> String {
    """
    {
      "name": "extension", "duration": "1h",
      "device": {"network": [{"at": "0s", "interface": "wifi", "down": "8Mbps", "up": "8Mbps", "latency": "20ms"}]},
      "server": {"resources": [{"url": "https://example.com/up", "method": "POST", "responseBody": "1KB"},
                               {"url": "https://example.com/a.bin", "size": "1MB", "etag": "a"}]},
      "policy": \(policy),
      "app": {"sessions": \(appSessions), "extensions": [{"name": "Share", "sessions": \(extensionSessions)}]},
      "timeline": [\(timeline)]
    }
    """
  }

  static let upload =
    #"{"at": "1s", "do": "upload", "extension": "Share", "session": "ShareUploads", "url": "https://example.com/up", "name": "up", "from": "file", "size": "8MB"}"#

  static func run(_ text: String) throws -> RunResult {
    ScenarioRunner.run(
      try ScenarioLoader.load(data: Array(text.utf8), file: "s.json"), checksInvariants: true)
  }

  static func kinds(_ result: RunResult) -> [String] { result.trace.events.map(\.kind) }

  /// The first event of `kind`, with `key` equal to `value` when given.
  static func first(_ kind: String, in result: RunResult, where key: String? = nil, is value: String = "")
    -> TraceEvent?
  {
    result.trace.events.first { event in
      guard event.kind == kind else { return false }
      guard let key else { return true }
      return text(event, key) == value
    }
  }

  /// A field's value as the trace prints it, or nil.
  static func text(_ event: TraceEvent, _ key: String) -> String? {
    guard let value = event[key] else { return nil }
    switch value {
    case .string(let s): return s
    case .int(let i): return String(i)
    default: return "\(value)"
    }
  }

  /// Extension names are told apart by their bytes, as the run tells every name: two whose names
  /// differ only in their Unicode form are two extensions, each with its own process.
  @Test("two extensions whose names differ only in their Unicode form are two processes")
  func namesByBytes() throws {
    let text = """
      {"name": "forms", "duration": "1h",
       "server": {"resources": [{"url": "https://example.com/up", "method": "POST", "responseBody": "1KB"}]},
       "app": {"sessions": [{"identifier": "Own"}], "extensions": [
         {"name": "\u{E9}", "sessions": [{"identifier": "A", "sharedContainerIdentifier": "group.x"}]},
         {"name": "e\u{301}", "sessions": [{"identifier": "B", "sharedContainerIdentifier": "group.x"}]}]},
       "timeline": [
         {"at": "0s", "do": "openExtension", "extension": "\u{E9}"},
         {"at": "1s", "do": "upload", "extension": "\u{E9}", "session": "A", "url": "https://example.com/up",
          "name": "one", "from": "file", "size": "1KB"},
         {"at": "2s", "do": "upload", "extension": "e\u{301}", "session": "B", "url": "https://example.com/up",
          "name": "two", "from": "file", "size": "1KB"}]}
      """
    // Loads: not "a second extension named ...".
    let result = try Self.run(text)
    // The composed one runs and uploads; the decomposed one was never opened.
    #expect(Self.first("task.created", in: result, where: "task", is: "one") != nil)
    #expect(Self.first("task.created", in: result, where: "task", is: "two") == nil)
    #expect(result.runError?.contains("is not running") == true)
  }

  @Test("the extension's upload goes on after it ends, and the containing app is launched to get its events")
  func handOff() throws {
    let text = Self.scenario(
      timeline: #"{"at": "0s", "do": "openExtension", "extension": "Share"}, "# + Self.upload
        + #", {"at": "2s", "do": "closeExtension", "extension": "Share"}"#)
    let result = try Self.run(text)
    #expect(result.runError == nil)
    let ended = try #require(Self.first("extension.terminate", in: result))
    #expect(ended.time == SimTime(.seconds(7)))
    let finished = try #require(Self.first("task.finished", in: result))
    #expect(finished.time > ended.time)
    let launch = try #require(Self.first("app.launch", in: result))
    #expect(Self.text(launch, "reason") == "background")
    let handle = try #require(Self.first("delegate.handleEvents", in: result))
    #expect(Self.text(handle, "session") == "ShareUploads")
    let complete = try #require(Self.first("delegate.didComplete", in: result))
    #expect(complete.time >= launch.time)
    // The app made the extension's session for the events, not at launch before being handed them.
    let kinds = Self.kinds(result)
    let handleIndex = try #require(kinds.firstIndex(of: "delegate.handleEvents"))
    let appSession = try #require(
      result.trace.events.lastIndex { (event: TraceEvent) -> Bool in
        event.kind == "session.created" && event["process"] == nil
          && Self.text(event, "session") == "ShareUploads"
      })
    #expect(appSession > handleIndex)
    #expect(kinds.contains("app.completionHandlerCalled"))
    #expect(Self.first("lint", in: result) == nil)
  }

  @Test("while the user stays in the extension, its finished upload's events wait: no wake, no delivery")
  func noDeliveryWhileExtensionRuns() throws {
    let text = Self.scenario(
      timeline: #"{"at": "0s", "do": "openExtension", "extension": "Share"}, "# + Self.upload
        + #", {"at": "10m", "do": "closeExtension", "extension": "Share"}"#)
    let result = try Self.run(text)
    let finished = try #require(Self.first("task.finished", in: result))
    #expect(finished.time < SimTime(.minutes(1)))
    let launch = try #require(Self.first("app.launch", in: result))
    #expect(launch.time == SimTime(.minutes(10) + .seconds(5)))
    let complete = try #require(Self.first("delegate.didComplete", in: result))
    #expect(complete.time >= launch.time)
  }

  @Test("extensionEndsAfter sets when the system ends the extension")
  func endsAfterKnob() throws {
    let text = Self.scenario(
      policy: #"{"extensionEndsAfter": "30s"}"#,
      timeline: #"{"at": "0s", "do": "openExtension", "extension": "Share"}, "#
        + #"{"at": "2s", "do": "closeExtension", "extension": "Share"}"#)
    let result = try Self.run(text)
    let ended = try #require(Self.first("extension.terminate", in: result))
    #expect(ended.time == SimTime(.seconds(32)))
  }

  @Test("reopening the extension before the system ends it calls the end off")
  func reopenCancelsEnd() throws {
    let text = Self.scenario(
      timeline: #"{"at": "0s", "do": "openExtension", "extension": "Share"}, "#
        + #"{"at": "2s", "do": "closeExtension", "extension": "Share"}, "#
        + #"{"at": "4s", "do": "openExtension", "extension": "Share"}, "#
        + #"{"at": "8s", "do": "upload", "extension": "Share", "session": "ShareUploads", "url": "https://example.com/up", "name": "up", "from": "file", "size": "1MB"}"#
    )
    let result = try Self.run(text)
    #expect(result.runError == nil)
    #expect(Self.first("extension.terminate", in: result) == nil)
    #expect(Self.first("task.created", in: result) != nil)
  }

  @Test("an extension's background session without a shared container fails its tasks with -995")
  func requiresSharedContainer() throws {
    let without = try Self.run(
      Self.scenario(
        extensionSessions: #"[{"identifier": "ShareUploads"}]"#,
        timeline: #"{"at": "0s", "do": "openExtension", "extension": "Share"}, "# + Self.upload))
    let failed = try #require(Self.first("task.failed", in: without))
    #expect(Self.text(failed, "code") == "-995")
    #expect(
      Self.first("lint", in: without, where: "rule", is: "extensionSessionWithoutSharedContainer") != nil)
    #expect(Self.first("session.connectFailed", in: without) != nil)
    // The failed session wakes no one.
    #expect(Self.first("app.launch", in: without) == nil)
    let with = try Self.run(
      Self.scenario(timeline: #"{"at": "0s", "do": "openExtension", "extension": "Share"}, "# + Self.upload))
    #expect(Self.first("task.failed", in: with) == nil)
    #expect(Self.first("lint", in: with) == nil)
  }

  @Test("the app's own session needs no shared container")
  func appSessionWithoutContainer() throws {
    let result = try Self.run(
      Self.scenario(
        timeline: #"{"at": "0s", "do": "launch"}, "#
          + #"{"at": "1s", "do": "download", "session": "Own", "url": "https://example.com/a.bin", "name": "a"}"#
      ))
    #expect(Self.first("task.finished", in: result) != nil)
    #expect(Self.first("session.connectFailed", in: result) == nil)
  }

  @Test("the extension connecting to a session the (suspended) app holds gets -996")
  func inUseByApp() throws {
    let shared = #"[{"identifier": "ShareUploads", "sharedContainerIdentifier": "group.x"}]"#
    let text = Self.scenario(
      appSessions: shared,
      timeline:
        #"{"at": "0s", "do": "launch"}, {"at": "0.5s", "do": "getAllTasks", "session": "ShareUploads"}, "#
        + #"{"at": "0.6s", "do": "background"}, {"at": "0.9s", "do": "openExtension", "extension": "Share"}, "#
        + Self.upload)
    let result = try Self.run(text)
    #expect(result.runError == nil)
    let failed = try #require(Self.first("task.failed", in: result))
    #expect(Self.text(failed, "code") == "-996")
    let connect = try #require(Self.first("session.connectFailed", in: result))
    #expect(Self.text(connect, "heldBy") == "app")
    #expect(Self.first("lint", in: result, where: "rule", is: "sessionInUseByAnotherProcess") != nil)
    // The app's session is untouched: no event reaches it.
    #expect(Self.first("delegate.didComplete", in: result) == nil)
  }

  @Test("once the app's process is gone the extension connects to the identifier without -996")
  func freeAfterAppEnds() throws {
    let shared = #"[{"identifier": "ShareUploads", "sharedContainerIdentifier": "group.x"}]"#
    let text = Self.scenario(
      appSessions: shared,
      timeline:
        #"{"at": "0s", "do": "launch"}, {"at": "0.5s", "do": "getAllTasks", "session": "ShareUploads"}, "#
        + #"{"at": "0.6s", "do": "terminate"}, {"at": "0.9s", "do": "openExtension", "extension": "Share"}, "#
        + Self.upload)
    let result = try Self.run(text)
    #expect(Self.first("session.connectFailed", in: result) == nil)
    #expect(Self.first("task.finished", in: result) != nil)
  }

  @Test(
    "the app connecting to a session the running extension holds gets -996; its events still reach the app later"
  )
  func inUseByExtension() throws {
    let shared = #"[{"identifier": "ShareUploads", "sharedContainerIdentifier": "group.x"}]"#
    let text = Self.scenario(
      appSessions: shared,
      timeline: #"{"at": "0s", "do": "openExtension", "extension": "Share"}, "# + Self.upload
        + #", {"at": "2s", "do": "launch"}, {"at": "3s", "do": "getAllTasks", "session": "ShareUploads"}"#)
    let result = try Self.run(text)
    let connect = try #require(Self.first("session.connectFailed", in: result))
    #expect(Self.text(connect, "process") == "app")
    #expect(Self.text(connect, "heldBy") == "Share")
    #expect(Self.first("lint", in: result, where: "rule", is: "sessionInUseByAnotherProcess") != nil)
    // The extension's upload is unharmed.
    #expect(Self.first("task.finished", in: result) != nil)
    #expect(Self.first("task.failed", in: result) == nil)
  }

  @Test("an upload from data in an extension fails with -997 when the extension ends")
  func uploadFromDataDiesWithExtension() throws {
    let text = Self.scenario(
      timeline: #"{"at": "0s", "do": "openExtension", "extension": "Share"}, "#
        + #"{"at": "1s", "do": "upload", "extension": "Share", "session": "ShareUploads", "url": "https://example.com/up", "name": "up", "from": "data", "size": "80MB"}, "#
        + #"{"at": "2s", "do": "closeExtension", "extension": "Share"}"#)
    let result = try Self.run(text)
    let failed = try #require(Self.first("task.failed", in: result))
    #expect(Self.text(failed, "code") == "-997")
    #expect(failed.time == SimTime(.seconds(7)))
  }

  @Test("an extension action while the extension is not running stops the run, naming the entry")
  func actionWhileNotRunning() throws {
    let result = try Self.run(Self.scenario(timeline: Self.upload))
    let error = try #require(result.runError)
    #expect(error.contains("timeline[0]"))
    #expect(error.contains("openExtension"))
  }

  @Test("the loader refuses extension mistakes with the place and a fix")
  func loaderMessages() {
    let unknown = loaderProblems(
      Self.scenario(timeline: #"{"at": "0s", "do": "openExtension", "extension": "Shar"}"#))
    #expect(unknown.contains { $0.contains("timeline[0].extension") && $0.contains("did you mean 'Share'?") })
    let wrongSession = loaderProblems(
      Self.scenario(
        timeline:
          #"{"at": "1s", "do": "upload", "extension": "Share", "session": "Own", "url": "https://example.com/up", "name": "u", "from": "file", "size": "1MB"}"#
      ))
    #expect(
      wrongSession.contains {
        $0.contains("timeline[0].session") && $0.contains("extension 'Share' has no session 'Own'")
      })
    let onCancel = loaderProblems(
      Self.scenario(
        timeline: #"{"at": "0s", "do": "launch"}, "# + Self.upload
          + #", {"at": "2s", "do": "cancel", "task": "up", "extension": "Share"}"#))
    #expect(
      onCancel.contains {
        $0.contains("timeline[2].extension") && $0.contains("download and upload entries only")
      })
    let defaultKind = loaderProblems(
      Self.scenario(extensionSessions: #"[{"identifier": "ShareUploads", "kind": "default"}]"#, timeline: ""))
    #expect(defaultKind.contains { $0.contains("app.extensions[0].sessions[0].kind") })
    let twice = loaderProblems(
      Self.scenario(timeline: "").replacingOccurrences(
        of: #""extensions": [{"name": "Share", "#,
        with: #""extensions": [{"name": "Share"}, {"name": "Share", "#))
    #expect(twice.contains { $0.contains("app.extensions[1].name") && $0.contains("a second extension") })
    let missing = loaderProblems(Self.scenario(timeline: #"{"at": "0s", "do": "closeExtension"}"#))
    #expect(missing.contains { $0.contains("timeline[0]") && $0.contains("'extension'") })
  }

  @Test("a reaction may not name an extension: it runs in the app")
  func reactionRefusesExtension() {
    let text = """
      {"name": "r", "server": {"resources": [{"url": "https://example.com/a.bin", "size": "1MB"}]},
       "app": {"sessions": [{"identifier": "S"}], "extensions": [{"name": "Share", "sessions": []}],
               "behavior": {"on": [{"event": "didLaunch", "do": [{"do": "download", "session": "S",
                 "url": "https://example.com/a.bin", "name": "a-{n}", "extension": "Share"}]}]}}}
      """
    #expect(loaderProblems(text).contains { $0.contains("a reaction runs in the app") })
  }
}
