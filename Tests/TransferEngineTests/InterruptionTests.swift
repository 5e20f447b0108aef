import Foundation
import SimKernel
import Testing

@testable import TransferEngine

@Suite("Interruptions, retries, timeouts")
struct InterruptionTests {
  /// 1 MB at 4 Mbps (500 KB/s) after a 60 ms round trip: 40% = 400 KB at 0.86 s.
  static let fortyPercent = SimDuration.milliseconds(860)

  @Test("Wi-Fi lost at 40% and back 10 minutes later resumes at 40% in a background session")
  func backgroundResumesAtOffset() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(
      network: [
        Fixture.network(.wifi), Step(at: SimTime(Self.fortyPercent), .offline),
        Fixture.network(.wifi, at: Self.fortyPercent + .minutes(10)),
      ],
      resources: [Fixture.resource("https://example.com/a", size: 1_000_000)], app: app)
    let task = try app.sessions["S"]!.downloadTask(with: "https://example.com/a", name: "a")
    task.resume()
    sim.run(until: SimTime(.hours(1)))
    let interrupted = try #require(Fixture.events(sim, "task.interrupted").first)
    #expect(interrupted["bytes"] == .int(400_000))
    let retry = try #require(Fixture.events(sim, "task.retry").first)
    #expect(retry.time == SimTime(Self.fortyPercent + .minutes(10)))
    #expect(retry["offset"] == .int(400_000))
    // 600 KB left at 500 KB/s plus a round trip.
    #expect(
      Fixture.time(sim, "task.finished", task: "a")
        == SimTime(Self.fortyPercent + .minutes(10) + .milliseconds(1260)))
    #expect(task.error == nil)
    #expect(task.countOfBytesReceived == 1_000_000)
  }

  @Test("Wi-Fi lost at 40% fails a default session's task with -1005 and resume data")
  func defaultSessionFails() throws {
    let app = TestApp([.default(identifier: "D")])
    let sim = Fixture.simulation(
      network: [
        Fixture.network(.wifi), Step(at: SimTime(Self.fortyPercent), .offline),
        Fixture.network(.wifi, at: Self.fortyPercent + .minutes(10)),
      ],
      resources: [Fixture.resource("https://example.com/a", size: 1_000_000)], app: app)
    let task = try app.sessions["D"]!.downloadTask(with: "https://example.com/a", name: "a")
    task.resume()
    sim.run(until: SimTime(.hours(1)))
    let error = try #require(task.error)
    #expect(error.code == .networkConnectionLost)
    #expect(error.code.rawValue == -1005)
    #expect(error.resumeData?.resumeOffset == 400_000)
    #expect(app.completions.first?.1?.code == .networkConnectionLost)
  }

  @Test("a default session task with no interface fails with -1009 at once")
  func defaultNotConnected() throws {
    let app = TestApp([.default(identifier: "D")])
    let sim = Fixture.simulation(
      network: [Step(at: .zero, .offline)], resources: [Fixture.resource("https://example.com/a", size: 10)],
      app: app)
    let task = try app.sessions["D"]!.downloadTask(with: "https://example.com/a", name: "a")
    task.resume()
    sim.run(until: SimTime(.minutes(1)))
    #expect(task.error?.code == .notConnectedToInternet)
  }

  @Test("a default session that waits for connectivity is told so and starts when the network returns")
  func defaultWaitsForConnectivity() throws {
    var configuration = SessionConfiguration.default(identifier: "D")
    configuration.waitsForConnectivity = true
    let app = TestApp([configuration])
    let sim = Fixture.simulation(
      network: [Step(at: .zero, .offline), Fixture.network(.wifi, at: .minutes(1))],
      resources: [Fixture.resource("https://example.com/a", size: 10)], app: app)
    let task = try app.sessions["D"]!.downloadTask(with: "https://example.com/a", name: "a")
    task.resume()
    sim.run(until: SimTime(.minutes(5)))
    #expect(Fixture.events(sim, "delegate.taskIsWaitingForConnectivity").count == 1)
    #expect(Fixture.time(sim, "task.started", task: "a") == SimTime(.minutes(1)))
    #expect(task.error == nil)
  }

  @Test("a resumed download whose ETag changed restarts at 0")
  func etagChangeRestarts() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let url = Fixture.url("https://example.com/a")
    let sim = Fixture.simulation(
      network: [
        Fixture.network(.wifi), Step(at: SimTime(Self.fortyPercent), .offline),
        Fixture.network(.wifi, at: .minutes(10)),
      ],
      resources: [Fixture.resource(url.string, size: 1_000_000)],
      changes: [ServerChange(at: SimTime(.minutes(5)), url: url, etag: "v2")], app: app)
    let task = try app.sessions["S"]!.downloadTask(with: url.string, name: "a")
    task.resume()
    sim.run(until: SimTime(.hours(1)))
    let retry = try #require(Fixture.events(sim, "task.retry").first)
    #expect(retry.time == SimTime(.minutes(10)))
    // Restarted: the whole 1 MB again.
    #expect(Fixture.time(sim, "task.finished", task: "a") == SimTime(.minutes(10) + .milliseconds(2060)))
    #expect(task.bytesWasted == 400_000)
  }

  @Test("resume data continues at the offset when unchanged and restarts at 0 when the ETag changed")
  func resumeData() throws {
    for changed in [false, true] {
      let app = TestApp([.background(withIdentifier: "S")])
      let url = Fixture.url("https://example.com/a")
      let sim = Fixture.simulation(
        resources: [Fixture.resource(url.string, size: 1_000_000)],
        changes: changed ? [ServerChange(at: SimTime(.minutes(1)), url: url, etag: "v2")] : [], app: app)
      let task = try app.sessions["S"]!.downloadTask(with: url.string, name: "a")
      task.resume()
      sim.run(until: SimTime(Self.fortyPercent))
      var data: Data?
      task.cancel(byProducingResumeData: { data = $0 })
      let resumeData = try #require(data)
      #expect(resumeData.resumeOffset == 400_000)
      sim.run(until: SimTime(.minutes(2)))
      let again = try app.sessions["S"]!.downloadTask(withResumeData: resumeData, name: "b")
      again.resume()
      sim.run(until: SimTime(.hours(1)))
      #expect(app.resumedAt.last?.0 == "b")
      #expect(app.resumedAt.last?.1 == (changed ? 0 : 400_000))
      #expect(again.countOfBytesReceived == 1_000_000)
    }
  }

  @Test("no resume data without a validator or byte ranges")
  func noResumeData() throws {
    for resource in [
      Fixture.resource("https://example.com/a", size: 1_000_000, etag: nil),
      Fixture.resource("https://example.com/a", size: 1_000_000, acceptsRanges: false),
    ] {
      let app = TestApp([.background(withIdentifier: "S")])
      let sim = Fixture.simulation(resources: [resource], app: app)
      let task = try app.sessions["S"]!.downloadTask(with: resource.url.string, name: "a")
      task.resume()
      sim.run(until: SimTime(Self.fortyPercent))
      var produced: Data? = Data?.none
      var called = false
      task.cancel(byProducingResumeData: {
        produced = $0
        called = true
      })
      #expect(called)
      #expect(produced == nil)
      #expect(task.error?.code == .cancelled)
    }
  }

  @Test("resume data is single use: the second use restarts at 0 and lints resumeDataReused")
  func resumeDataReuse() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(
      resources: [Fixture.resource("https://example.com/a", size: 1_000_000)], app: app)
    let task = try app.sessions["S"]!.downloadTask(with: "https://example.com/a", name: "a")
    task.resume()
    sim.run(until: SimTime(Self.fortyPercent))
    var data: Data?
    task.cancel(byProducingResumeData: { data = $0 })
    let first = try app.sessions["S"]!.downloadTask(withResumeData: data!, name: "b")
    first.resume()
    sim.run(until: SimTime(.minutes(1)))
    let second = try app.sessions["S"]!.downloadTask(withResumeData: data!, name: "c")
    second.resume()
    sim.run(until: SimTime(.minutes(2)))
    #expect(app.resumedAt.map(\.1) == [400_000, 0])
    let lint = try #require(Fixture.events(sim, "lint").first)
    #expect(lint["rule"] == "resumeDataReused")
  }

  @Test("a 503 completes without a transport error and with status 503")
  func httpErrorStatus() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let url = Fixture.url("https://example.com/a")
    let sim = Fixture.simulation(
      resources: [Fixture.resource(url.string, size: 1000)],
      faults: [.status(from: .zero, to: SimTime(.hours(1)), target: .host("example.com"), status: 503)],
      app: app)
    let task = try app.sessions["S"]!.downloadTask(with: url.string, name: "a")
    task.resume()
    sim.run(until: SimTime(.hours(2)))
    #expect(task.error == nil)
    #expect(task.statusCode == 503)
    let complete = try #require(Fixture.events(sim, "delegate.didComplete").first)
    #expect(complete["status"] == .int(503))
    #expect(complete["error"] == "none")
  }

  @Test("ftp:// and other non-HTTP URLs are rejected when the task is created")
  func rejectsNonHTTP() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(resources: [], app: app)
    #expect(throws: SimAPIMisuse.self) { try app.sessions["S"]!.downloadTask(with: "ftp://example.com/a") }
    #expect(throws: SimAPIMisuse.self) { try app.sessions["S"]!.downloadTask(with: "file:///etc/passwd") }
    #expect(sim.allTasks.isEmpty)
  }

  @Test("the resource timeout fails a task that never got a network after 7 days, with -1001")
  func resourceTimeout() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(
      network: [Step(at: .zero, .offline)], resources: [Fixture.resource("https://example.com/a", size: 10)],
      app: app)
    let task = try app.sessions["S"]!.downloadTask(with: "https://example.com/a", name: "a")
    task.resume()
    sim.run(until: SimTime(.days(30)))
    let failed = try #require(Fixture.events(sim, "task.failed").first)
    #expect(failed.time == SimTime(.days(7)))
    #expect(failed["error"] == "timedOut")
    #expect(failed["code"] == .int(-1001))
    #expect(Fixture.events(sim, "task.deferred").first?["reason"] == "connectivity")
  }

  @Test("the server dropping the connection makes a background download retry after the backoff")
  func dropConnectionRetries() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let url = Fixture.url("https://example.com/a")
    let sim = Fixture.simulation(
      resources: [Fixture.resource(url.string, size: 1_000_000)],
      faults: [.dropConnection(at: SimTime(Self.fortyPercent), target: .url(url), times: 1)], app: app)
    let task = try app.sessions["S"]!.downloadTask(with: url.string, name: "a")
    task.resume()
    sim.run(until: SimTime(.hours(1)))
    let retry = try #require(Fixture.events(sim, "task.retry").first)
    #expect(retry.time == SimTime(Self.fortyPercent + .seconds(10)))
    #expect(retry["offset"] == .int(400_000))
    #expect(task.error == nil)
  }

  @Test("redirects are followed in background sessions and traced")
  func redirects() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(
      resources: [
        Fixture.resource(
          "https://example.com/old", size: 0, status: 301, redirectTo: "https://cdn.example.com/new"),
        Fixture.resource("https://cdn.example.com/new", size: 500_000),
      ], app: app)
    let task = try app.sessions["S"]!.downloadTask(with: "https://example.com/old", name: "a")
    task.resume()
    sim.run(until: SimTime(.hours(1)))
    #expect(Fixture.events(sim, "task.redirect").count == 1)
    #expect(task.currentURL.string == "https://cdn.example.com/new")
    #expect(Fixture.time(sim, "task.finished", task: "a") == SimTime(.milliseconds(1120)))
  }

  /// A default session with one redirect, and its app.
  private func redirectingDefaultSession(_ answer: @escaping (SimURLSessionTask, SimURL) -> Bool) throws
    -> (Simulation, SimURLSessionTask)
  {
    let app = TestApp([.default(identifier: "D")])
    app.onRedirect = answer
    let sim = Fixture.simulation(
      resources: [
        Fixture.resource(
          "https://example.com/old", size: 0, status: 301, responseBody: 200,
          redirectTo: "https://cdn.example.com/new"),
        Fixture.resource("https://cdn.example.com/new", size: 500_000),
      ], app: app)
    let task = try app.sessions["D"]!.downloadTask(with: "https://example.com/old", name: "a")
    task.resume()
    return (sim, task)
  }

  @Test("a default session's redirect is the app's to refuse: the 3xx response is the answer")
  func redirectRefused() throws {
    let (sim, task) = try redirectingDefaultSession { _, _ in false }
    sim.run(until: SimTime(.hours(1)))
    #expect(Fixture.events(sim, "delegate.willPerformHTTPRedirection").count == 1)
    #expect(Fixture.events(sim, "task.redirect").isEmpty)
    #expect(task.statusCode == 301 && task.error == nil)
    #expect(task.currentURL.string == "https://example.com/old")
  }

  @Test("the redirect delegate runs after the engine's state is settled: cancelling there ends the task")
  func cancelInsideRedirectDelegate() throws {
    // The app cancels the task while it is asked about the redirect, and says "follow": the
    // cancellation wins, the redirect is never followed and the task ends once.
    let (sim, task) = try redirectingDefaultSession { task, _ in
      task.cancel()
      return true
    }
    sim.run(until: SimTime(.hours(1)))
    sim.checkFinalInvariants()
    #expect(sim.invariantViolation == nil)
    #expect(Fixture.events(sim, "task.redirect").isEmpty)
    #expect(Fixture.events(sim, "task.finished").isEmpty)
    #expect(task.error?.code == .cancelled)
    #expect(task.currentURL.string == "https://example.com/old")
  }

  @Test("cellular not allowed: the task waits on cellular and starts on Wi-Fi")
  func cellularNotAllowed() throws {
    var configuration = SessionConfiguration.background(withIdentifier: "S")
    configuration.allowsCellularAccess = false
    let app = TestApp([configuration])
    let sim = Fixture.simulation(
      network: [Fixture.network(.cellular), Fixture.network(.wifi, at: .minutes(20))],
      resources: [Fixture.resource("https://example.com/a", size: 10)], app: app)
    let task = try app.sessions["S"]!.downloadTask(with: "https://example.com/a", name: "a")
    task.resume()
    sim.run(until: SimTime(.hours(1)))
    #expect(Fixture.events(sim, "task.deferred").first?["reason"] == "cellularNotAllowed")
    #expect(Fixture.time(sim, "task.started", task: "a") == SimTime(.minutes(20)))
  }

  @Test("a personal hotspot (expensive Wi-Fi) holds tasks of sessions that disallow expensive access")
  func expensiveNotAllowed() throws {
    var configuration = SessionConfiguration.background(withIdentifier: "S")
    configuration.allowsExpensiveNetworkAccess = false
    let app = TestApp([configuration])
    let sim = Fixture.simulation(
      network: [Fixture.network(.wifi, expensive: true), Fixture.network(.wifi, at: .minutes(7))],
      resources: [Fixture.resource("https://example.com/a", size: 10)], app: app)
    try app.sessions["S"]!.downloadTask(with: "https://example.com/a", name: "a").resume()
    sim.run(until: SimTime(.hours(1)))
    #expect(Fixture.events(sim, "task.deferred").first?["reason"] == "expensiveNotAllowed")
    #expect(Fixture.time(sim, "task.started", task: "a") == SimTime(.minutes(7)))
  }

  @Test("Low Data Mode holds tasks of sessions that disallow constrained access")
  func lowDataMode() throws {
    var configuration = SessionConfiguration.background(withIdentifier: "S")
    configuration.allowsConstrainedNetworkAccess = false
    let app = TestApp([configuration])
    let sim = Fixture.simulation(
      network: [Fixture.network(.wifi, constrained: true), Fixture.network(.wifi, at: .minutes(5))],
      resources: [Fixture.resource("https://example.com/a", size: 10)], app: app)
    try app.sessions["S"]!.downloadTask(with: "https://example.com/a", name: "a").resume()
    sim.run(until: SimTime(.hours(1)))
    #expect(Fixture.events(sim, "task.deferred").first?["reason"] == "constrainedNotAllowed")
    #expect(Fixture.time(sim, "task.started", task: "a") == SimTime(.minutes(5)))
  }

  @Test("upload sends the body up, then the response body down")
  func upload() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(
      resources: [Fixture.resource("https://example.com/up", size: 0, responseBody: 500_000)], app: app)
    // 125 KB up at 1 Mbps = 1 s; 500 KB down at 4 Mbps = 1 s; one round trip first.
    let task = try app.sessions["S"]!.uploadTask(
      with: "https://example.com/up", fromFileOfSize: 125_000, name: "u")
    task.resume()
    sim.run(until: SimTime(.hours(1)))
    #expect(Fixture.time(sim, "task.finished", task: "u") == SimTime(.milliseconds(2060)))
    #expect(Fixture.events(sim, "delegate.didReceiveData").first?["bytes"] == .int(500_000))
    #expect(task.countOfBytesSent == 125_000)
  }
}
