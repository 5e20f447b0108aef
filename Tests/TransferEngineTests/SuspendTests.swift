import SimKernel
import Testing

@testable import TransferEngine

/// `suspend()` on a resumed task (behavior.md, "Suspending a task"): no traffic and no timeouts
/// while suspended, its connection freed, a download continuing from its bytes after `resume()`.
@Suite("The app suspends and resumes a task")
struct SuspendTests {
  /// 1 MB at 4 Mbps (500 KB/s) after a 60 ms round trip: 40% = 400 KB at 0.86 s.
  static let fortyPercent = SimTime(.milliseconds(860))

  static func kinds(_ sim: Simulation, task: String) -> [String] {
    sim.trace.events.filter { $0["task"] == .string(task) }.map(\.kind)
  }

  @Test("a suspended download moves no bytes, then continues from its offset when resumed")
  func downloadContinues() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(
      resources: [Fixture.resource("https://example.com/a", size: 1_000_000)], app: app)
    let task = try app.sessions["S"]!.downloadTask(with: "https://example.com/a", name: "a")
    task.resume()
    sim.run(until: Self.fortyPercent)
    task.suspend()
    #expect(task.state == .suspended)
    #expect(task.countOfBytesReceived == 400_000)
    sim.run(until: SimTime(.minutes(10)))
    #expect(task.countOfBytesReceived == 400_000 && task.state == .suspended && task.error == nil)
    let suspend = try #require(Fixture.events(sim, "task.suspend").first)
    #expect(suspend["bytes"] == .int(400_000) && suspend.time == Self.fortyPercent)
    task.resume()
    #expect(task.state == .running)
    sim.run(until: SimTime(.hours(1)))
    #expect(task.error == nil && task.countOfBytesReceived == 1_000_000)
    #expect(Fixture.events(sim, "task.retry").first?["offset"] == .int(400_000))
    #expect(task.bytesWasted == 0)
    #expect(
      Self.kinds(sim, task: "a").filter { $0.hasPrefix("task.") } == [
        "task.created", "task.resume", "task.started", "task.suspend", "task.resume", "task.retry",
        "task.finished",
      ])
  }

  @Test("a suspended task is not subject to timeouts: the resource timer keeps the time it had left")
  func noTimeouts() throws {
    var configuration = SessionConfiguration.background(withIdentifier: "S")
    configuration.timeoutIntervalForResource = .minutes(5)
    let app = TestApp([configuration])
    let sim = Fixture.simulation(
      network: [Fixture.network(.wifi), Fixture.network(.none, at: .hours(1))],
      resources: [Fixture.resource("https://example.com/a", size: 1_000_000)], app: app)
    let task = try app.sessions["S"]!.downloadTask(with: "https://example.com/a", name: "a")
    task.resume()
    sim.run(until: Self.fortyPercent)
    task.suspend()
    sim.run(until: SimTime(.hours(2)))
    #expect(task.error == nil && task.state == .suspended)
    // Resumed with 5 min minus 0.86 s left; offline, so it times out when that runs out.
    let resumedAt = sim.now
    #expect(resumedAt >= SimTime(.hours(1)))
    task.resume()
    sim.run(until: SimTime(.hours(3)))
    #expect(task.error?.code == .timedOut)
    let failed = try #require(Fixture.events(sim, "task.failed").first)
    #expect(failed.time == resumedAt + (.minutes(5) - .milliseconds(860)))
  }

  @Test("suspending frees the connection: the next task of the host starts")
  func freesConnection() throws {
    var configuration = SessionConfiguration.background(withIdentifier: "S")
    configuration.httpMaximumConnectionsPerHost = 1
    let app = TestApp([configuration])
    let sim = Fixture.simulation(
      resources: [
        Fixture.resource("https://example.com/a", size: 1_000_000),
        Fixture.resource("https://example.com/b", size: 1_000_000),
      ], app: app)
    let a = try app.sessions["S"]!.downloadTask(with: "https://example.com/a", name: "a")
    let b = try app.sessions["S"]!.downloadTask(with: "https://example.com/b", name: "b")
    a.resume()
    b.resume()
    sim.run(until: Self.fortyPercent)
    #expect(b.countOfBytesReceived == 0)
    a.suspend()
    sim.run(until: SimTime(.minutes(1)))
    #expect(b.countOfBytesReceived == 1_000_000 && a.countOfBytesReceived == 400_000)
  }

  @Test("an upload suspended mid-body sends its body again; a waiting task leaves its queue")
  func uploadAndWaiting() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(
      network: [Fixture.network(.wifi, up: 4)],
      resources: [Fixture.resource("https://example.com/u", size: 0)],
      app: app)
    let upload = try app.sessions["S"]!.uploadTask(
      with: "https://example.com/u", fromFileOfSize: 1_000_000, name: "u")
    upload.resume()
    sim.run(until: Self.fortyPercent)
    upload.suspend()
    let sentBefore = try #require(Fixture.events(sim, "task.suspend").first?["bytes"])
    #expect(sentBefore != .int(0))
    #expect(upload.countOfBytesSent == 0)
    upload.resume()
    sim.run(until: SimTime(.minutes(1)))
    #expect(upload.error == nil && upload.countOfBytesSent == 1_000_000 && upload.bytesWasted > 0)

    let waiting = try app.sessions["S"]!.downloadTask(with: "https://example.com/u", name: "w")
    waiting.earliestBeginDate = SimTime(.hours(1))
    waiting.resume()
    sim.run(until: SimTime(.minutes(2)))
    waiting.suspend()
    sim.run(until: SimTime(.hours(2)))
    #expect(
      waiting.state == .suspended
        && Fixture.events(sim, "task.started").allSatisfy { $0["task"] != .string("w") })
  }

  @Test("suspend on a task not yet resumed only counts; cancel while suspended ends it")
  func notResumedAndCancel() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(
      resources: [Fixture.resource("https://example.com/a", size: 1_000_000)], app: app)
    let task = try app.sessions["S"]!.downloadTask(with: "https://example.com/a", name: "a")
    task.suspend()
    task.resume()
    sim.run(until: SimTime(.minutes(1)))
    #expect(Fixture.events(sim, "task.resume").isEmpty && Fixture.events(sim, "task.suspend").isEmpty)
    task.resume()
    sim.run(until: sim.now + (Self.fortyPercent - .zero))
    task.suspend()
    var data: [UInt8]?
    task.cancel(byProducingResumeData: { data = $0.map { Array($0) } })
    #expect(task.error?.code == .cancelled && data != nil)
    sim.run(until: SimTime(.hours(1)))
    #expect(app.completions.map(\.0) == ["a"])
  }
}
