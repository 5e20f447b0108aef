import Foundation
import ScenarioKit
import SimKernel
import Testing
import TransferEngine

/// Decoding a whole scenario into the model, and reporting problems with paths.
@Suite struct ScenarioLoaderTests {
  private func load(_ text: String, file: String = "s.json") throws(ScenarioErrors) -> Scenario {
    try loadScenario(text, file: file)
  }

  /// The messages of an invalid scenario, or a failure when it loads.
  private func problems(_ text: String) -> [String] {
    let lines = loaderProblems(text)
    if lines.isEmpty { Issue.record("expected the scenario to be invalid") }
    return lines
  }

  @Test func fullScenarioTopLevelAndDevice() throws {
    let s = try load(Fixtures.fullScenario)
    #expect(s.file == "s.json")
    #expect(s.name == "relaunch-after-termination")
    #expect(s.description == "one line that says what this scenario shows")
    #expect(s.seed == 42)
    #expect(s.duration == .days(7))
    #expect(
      s.device.network == [
        Step(
          at: .zero,
          NetworkState(
            interface: .wifi, down: .megabitsPerSecond(50), up: .megabitsPerSecond(10),
            latency: .milliseconds(30))),
        Step(
          at: SimTime(.minutes(20)),
          NetworkState(
            interface: .cellular, down: .megabitsPerSecond(5), up: .megabitsPerSecond(1), expensive: true)),
        Step(at: SimTime(.minutes(40)), NetworkState(interface: .none)),
      ])
    #expect(
      s.device.power == [
        Step(at: .zero, PowerState(charging: false, battery: 0.62, lowPowerMode: false)),
        Step(at: SimTime(.hours(1)), PowerState(charging: true, battery: 0.62, lowPowerMode: false)),
      ])
    #expect(s.device.backgroundAppRefresh)
  }

  @Test func fullScenarioServerAndPolicy() throws {
    let s = try load(Fixtures.fullScenario)
    let book = try #require(SimURL("https://example.com/book.zip"))
    #expect(
      s.server.resources == [
        ServerResource(
          url: book, size: 50_000_000, etag: "v1", acceptsRanges: true, status: 200, responseBody: 1_000),
        ServerResource(url: try #require(SimURL("https://example.com/next.zip")), size: 1_572_864),
        ServerResource(
          url: try #require(SimURL("https://example.com/upload")), size: 0, responseBody: 512, method: "POST"),
      ])
    #expect(
      s.server.changes == [
        ServerChange(at: SimTime(.hours(2)), url: book, etag: .some("v2"), size: 51_000_000)
      ])
    #expect(
      s.server.faults == [
        .dropConnection(at: SimTime(.minutes(10)), target: .url(book), times: 1),
        .status(from: SimTime(.hours(1)), to: SimTime(.hours(2)), target: .host("example.com"), status: 503),
      ])
    let expected = Policy(
      rateLimiter: RateLimiterPolicy(
        initialDelay: .zero, firstDelay: .minutes(1), growth: 2.5, maxDelay: .hours(2),
        resetOnForeground: true,
        idleResetFactor: 1.5),
      discretionary: DiscretionaryPolicy(requires: [.wifi], avoidLowPowerMode: false),
      backgroundRunTime: .seconds(30),
      completionHandlerTimeout: .seconds(20), maxConnectionsPerHost: 6,
      retry: RetryPolicy(backoff: .seconds(5), maxBackoff: .minutes(5)))
    #expect(s.policy == expected)
  }

  @Test func fullScenarioApp() throws {
    let s = try load(Fixtures.fullScenario)
    #expect(
      s.app.sessions == [
        SessionConfiguration(
          identifier: "MySession", kind: .background, isDiscretionary: true, sessionSendsLaunchEvents: true,
          allowsCellularAccess: false, allowsExpensiveNetworkAccess: true,
          allowsConstrainedNetworkAccess: true,
          timeoutIntervalForRequest: .seconds(60), timeoutIntervalForResource: .days(7),
          httpMaximumConnectionsPerHost: 2),
        SessionConfiguration(identifier: "Fg", kind: .default, waitsForConnectivity: true),
      ])
    let b = s.app.behavior
    #expect(b.recreatesSessionsOnLaunch && !b.storesCompletionHandler && b.movesDownloadedFile)
    #expect(b.callsCompletionHandler == .immediately)
    let reaction = try #require(b.reactions.first)
    #expect(reaction.event == .didFinishDownloading && reaction.task == "chapter-*")
    #expect(reaction.path == "app.behavior.on[0]")
    guard case .download(let r) = try #require(reaction.actions.first) else {
      Issue.record("expected a download")
      return
    }
    #expect(r.session == "MySession" && r.url == "https://example.com/next.zip" && r.name == "next-{n}")
    #expect(r.earliestBegin == .relative(.seconds(30)))
  }

  @Test func fullScenarioTimelineIsSortedAndKeepsPaths() throws {
    let s = try load(Fixtures.fullScenario)
    #expect(s.timeline.map(\.path) == [1, 2, 3, 4, 0, 5, 6, 7, 8, 9, 10].map { "timeline[\($0)]" })
    #expect(
      s.timeline.map(\.at.nanoseconds)
        == [0, 10, 10, 20, 60, 120, 180, 240, 300, 360, 420].map { $0 * 1_000_000_000 })
    let descriptions = s.timeline.map { entry -> String in
      switch entry.action {
      case .launch: return "launch"
      case .background: return "background"
      case .terminate: return "terminate"
      case .forceQuit: return "forceQuit"
      case .reboot: return "reboot"
      case .openExtension(let name): return "openExtension \(name)"
      case .closeExtension(let name): return "closeExtension \(name)"
      case .inExtension(let name, _): return "in extension \(name)"
      case .app(.download(let r)):
        return "download \(r.name) \(r.session) \(r.url) \(String(describing: r.earliestBegin)) "
          + "\(r.expectsToReceive ?? -1) \(r.description ?? "-") \(r.priority ?? -1)"
      case .app(.upload(let r, let from, let size)): return "upload \(r.name) \(r.session) \(from) \(size)"
      case .app(.cancel(let task, let resume)): return "cancel \(task) \(resume)"
      case .app(.suspend(let task)): return "suspend \(task)"
      case .app(.resume(let task)): return "resume \(task)"
      case .app(.resumeFromData(let task, let name, let fallback, _, _)):
        return "resumeFromData \(task) \(name) \(fallback)"
      case .app(.getAllTasks(let session)): return "getAllTasks \(session)"
      case .app(.invalidate(let session, let cancel)): return "invalidate \(session) \(cancel)"
      case .app(.beginBackgroundTask(let name)): return "beginBackgroundTask \(name)"
      case .app(.endBackgroundTask(let name)): return "endBackgroundTask \(name)"
      case .app(.dataTask(let r)): return "dataTask \(r.name)"
      case .cancelContinuedProcessing, .app(.submitContinuedProcessing), .app(.reportContinuedProgress),
        .app(.completeContinuedProcessing):
        return "continued processing"
      }
    }
    #expect(
      descriptions == [
        "launch",
        "download book MySession https://example.com/book.zip Optional(ScenarioKit.InstantSpec.absolute(1h)) "
          + "50000000 {\"id\":1} 0.75",
        "download chapter-1 MySession https://example.com/book.zip nil -1 - -1.0",
        "upload up Fg file 2000000", "background", "cancel book true", "resumeFromData book book2 skip",
        "getAllTasks MySession", "terminate", "forceQuit", "invalidate Fg true",
      ])
  }

  @Test func fullScenarioExpectations() throws {
    let s = try load(Fixtures.fullScenario)
    let forms = s.expectations.map { e -> String in
      switch e.form {
      case .taskState(let t, let state, let by):
        return "\(e.path) \(t) \(state) \(by.map(\.description) ?? "-")"
      case .startsAfter(let t, let at): return "\(e.path) \(t) startsAfter \(at)"
      case .error(let t, let name, let reason): return "\(e.path) \(t) error \(name) \(reason ?? "-")"
      case .resumedAtOffset(let t, .equals(let bytes)): return "\(e.path) \(t) offset \(bytes)"
      case .resumedAtOffset(let t, let range): return "\(e.path) \(t) offset \(range)"
      case .status(let t, let status): return "\(e.path) \(t) status \(status)"
      case .appCounter(let name, let c): return "\(e.path) app \(name) \(c)"
      case .delayAtWake(let wake, let d): return "\(e.path) wake \(wake) \(d)"
      case .appState(let at, let state): return "\(e.path) app \(state) at \(at)"
      case .trace(let patterns, let inOrder): return "\(e.path) trace \(patterns) \(inOrder)"
      case .traceCount(let pattern, let c): return "\(e.path) count \(pattern) \(c)"
      case .lint(let rule, let present): return "\(e.path) lint \(rule) \(present)"
      }
    }
    #expect(
      forms == [
        "expect[0] book completed 2h", "expect[1] book startsAfter 1h",
        "expect[2] book error cancelled userForceQuitApplication", "expect[3] book2 offset 12000000",
        "expect[4] book status 503", "expect[5] next-1 completed -",
        "expect[6] app backgroundLaunches equals(1)",
        "expect[7] app backgroundResumes atLeast(2)", "expect[8] wake 3 4m",
        "expect[9] trace [\"app.launch reason=background\", \"delegate.handleEvents session=MySession\"] true",
        "expect[10] count delegate.didComplete task=book equals(1)",
        "expect[11] count delegate.didComplete task=* atLeast(2)",
        "expect[12] trace [\"task.started task=book\"] true",
        "expect[13] lint completionHandlerNeverCalled true",
      ])
  }

  @Test func minimalScenarioTakesDefaults() throws {
    let s = try load(#"{"name": "m"}"#)
    #expect(s.seed == 0 && s.duration == .days(7) && s.policy == .defaults && s.device == .wifi)
    #expect(s.timeline.isEmpty && s.expectations.isEmpty && s.app.sessions.isEmpty)
  }

  /// Every seed a run takes (`bgsim run --seed`, sweep and explore seeds go to UInt64.max) can
  /// be written into its file (FuzzTests writes them back).
  @Test func seedsGoToTheLargestUnsigned64BitInteger() throws {
    for seed in [UInt64(Int64.max), UInt64(Int64.max) + 1, UInt64.max] {
      #expect(try load(#"{"name": "m", "seed": \#(seed)}"#).seed == seed)
    }
  }

  @Test func duplicateSessionIdentifiersAreLeftToTheEngine() throws {
    let s = try load(#"{"name": "d", "app": {"sessions": [{"identifier": "S"}, {"identifier": "S"}]}}"#)
    #expect(s.app.sessions.count == 2)
  }

  @Test(arguments: [
    (
      #"{"name": "x", "expect": [{"app": "wakes", "atLeast": 1, "atMost": 3}]}"#,
      "s.json: expect[0]: give one comparison; found atLeast and atMost"
    ),
    (
      #"{"name": "x", "expect": [{"lint": "uploadFromData", "task": "a"}]}"#,
      "s.json: expect[0]: an expectation is about one thing; found task and lint, split it into separate items"
    ),
    (
      #"{"name": "x", "expect": [{"trace": "task.started task=b", "count": -1}]}"#,
      "s.json: expect[0].count: -1 is out of range; expected a count of 0 or more"
    ),
    (
      #"{"name": "x", "expect": [{"trace": "a=b c=d"}]}"#,
      "s.json: expect[0].trace: trace pattern \"a=b c=d\" must start with an event kind such as task.started"
    ),
    (
      #"{"name": "x", "server": {"resources": [{"url": "https://h/a", "size": 1}], "faults": [{"kind": "status", "from": "2h", "to": "1h", "host": "h", "status": 503}]}}"#,
      "s.json: server.faults[0].to: 'to' (1h) must be after 'from' (2h)"
    ),
    (
      #"{"name": "x", "policy": {"rateLimiter": {"groth": 3}}}"#,
      "s.json: policy.rateLimiter: unknown key 'groth'; did you mean 'growth'?"
    ),
    (
      #"{"name": "x", "policy": {"rateLimiter": 5}}"#,
      "s.json: policy.rateLimiter: expected an object with initialDelay, firstDelay, growth, maxDelay, resetOnForeground, idleResetFactor, found the number 5"
    ),
    (
      #"{"name": "x", "policy": {"retry": {"backoff": "1m"}, "bogus": 1}}"#,
      "s.json: policy: unknown key 'bogus'; expected rateLimiter, discretionary, backgroundRunTime, backgroundTaskLimit, extensionEndsAfter, completionHandlerTimeout, maxConnectionsPerHost, retry, reboot, delayedRequest, resumableUploads, resumableUploadDraft, continuedProcessing, challenge (keys starting with \"x-\" are ignored)"
    ),
    (
      #"{"name": "x", "policy": {"discretionary": {"requires": ["wfi"]}}}"#,
      "s.json: policy.discretionary.requires[0]: unknown discretionary condition 'wfi'; did you mean 'wifi'?"
    ),
    (
      #"{"name": "x", "timeline": [{"at": "8d", "do": "launch"}]}"#,
      "s.json: timeline[0].at: 8d is after the scenario's duration (7d); the entry would never run"
    ),
    (
      #"{"name": "x", "app": {"behavior": {"on": [{"event": "didComplete", "do": [{"do": "launch"}]}]}}}"#,
      "s.json: app.behavior.on[0].do[0].do: 'launch' is an action of the user or the system; a reaction can only do download, upload, cancel, suspend, resume, resumeFromData, getAllTasks, invalidate, beginBackgroundTask, endBackgroundTask, dataTask, submitContinuedProcessing, reportContinuedProgress, completeContinuedProcessing"
    ),
    (
      #"{"name": "x", "timeline": [{"at": "1s", "do": "beginBackgroundTask", "name": "sync"}, {"at": "2s", "do": "endBackgroundTask", "name": "snyc"}]}"#,
      "s.json: timeline[1].name: no beginBackgroundTask opens a background task named 'snyc'; did you mean 'sync'?"
    ),
    (
      #"{"name": "x", "timeline": [{"at": "1s", "do": "beginBackgroundTask", "name": "sync-{n}"}]}"#,
      "s.json: timeline[0].name: a background task's name must be literal, so endBackgroundTask can name the one it ends"
    ),
    (
      #"{"name": "x", "timeline": [{"at": "1s", "do": "beginBackgroundTask"}]}"#,
      "s.json: timeline[0]: missing required key 'name' (a background task name, a non-empty string)"
    ),
    (#"[1]"#, "s.json: expected a JSON object describing a scenario, found an array"),
  ])
  func singleProblems(text: String, message: String) {
    #expect(problems(text) == [message])
  }

  @Test func reactionPatternsSatisfyTaskReferences() throws {
    let text = #"""
      {"name": "p", "server": {"resources": [{"url": "https://h/{n}.zip", "count": 12, "size": 1}]},
       "app": {"sessions": [{"identifier": "S"}], "behavior": {"on": [{"event": "didComplete",
        "do": [{"do": "download", "session": "S", "url": "https://h/{n}.zip", "name": "part-{n}"}]}]}},
       "expect": [{"task": "part-12", "state": "completed"}]}
      """#
    #expect(try load(text).expectations.count == 1)
    #expect(
      problems(text.replacingOccurrences(of: "part-12", with: "part-x")) == [
        "s.json: expect[0].task: no download, upload or resumeFromData creates a task named 'part-x'"
      ])
  }
}

@Suite struct StartsAtClockTests {
  @Test(
    "startsAt sets the device's clock at time 0, read as UTC; without it the default holds",
    arguments: [
      ("\"startsAt\": \"2026-03-01T21:00:00\",", Int64(1_772_398_800)),
      ("\"startsAt\": \"2024-02-29T00:00\",", 1_709_164_800),
      ("\"startsAt\": \"1969-12-31T23:59:59\",", -1),
      ("", DeviceModel.defaultClockAtStart),
    ])
  func clock(_ field: String, _ expected: Int64) throws {
    let text = #"{"name": "c", \#(field) "duration": "1h"}"#
    let scenario = try ScenarioLoader.load(data: Array(text.utf8), file: "c.json")
    #expect(scenario.device.clockAtStart == expected)
  }
}
