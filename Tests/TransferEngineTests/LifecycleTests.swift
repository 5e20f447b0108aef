import Foundation
import SimKernel
import Testing

@testable import TransferEngine

@Suite("App lifecycle, wakes and the completion-handler contract")
struct LifecycleTests {
  static let oneMB = [Fixture.resource("https://example.com/book", size: 1_000_000)]
  /// 20 s at 4 Mbps: still running when a backgrounded app is suspended at 5 s.
  static let tenMB = [Fixture.resource("https://example.com/book", size: 10_000_000)]

  /// Kinds and key fields of the trace from `kind` filters, for order assertions.
  static func lines(_ sim: Simulation, _ kinds: Set<String>) -> [String] {
    sim.trace.events.filter { kinds.contains($0.kind) }.map { event in
      let detail = event.fields.filter { ["reason", "task", "session"].contains($0.key) }
        .map { "\($0.key)=\($0.value)" }.joined(separator: " ")
      return detail.isEmpty ? event.kind : "\(event.kind) \(detail)"
    }
  }

  static let wakeKinds: Set<String> = [
    "app.launch", "app.resume", "app.suspend", "app.terminate", "delegate.handleEvents",
    "delegate.didFinishDownloading", "delegate.didComplete", "delegate.didFinishEvents",
    "app.completionHandlerCalled",
    "session.created",
  ]

  @Test("a suspended app is resumed in the background when its downloads finish")
  func suspendedAppResumed() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(resources: Self.tenMB, app: app)
    try app.sessions["S"]!.downloadTask(with: "https://example.com/book", name: "book").resume()
    sim.backgroundApp()
    sim.run(until: SimTime(.hours(1)))
    #expect(
      Self.lines(sim, Self.wakeKinds) == [
        "app.launch reason=user", "session.created session=S", "app.suspend", "app.resume reason=background",
        "delegate.handleEvents session=S", "delegate.didFinishDownloading task=book",
        "delegate.didComplete task=book",
        "delegate.didFinishEvents session=S", "app.completionHandlerCalled session=S", "app.suspend",
      ])
    #expect(sim.rateLimiterDelays == [.seconds(60)])
  }

  @Test(
    "relaunch after termination: launch, handleEvents, file, didComplete, didFinishEvents, handler, suspend")
  func relaunchOrder() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(resources: Self.oneMB, app: app)
    try app.sessions["S"]!.downloadTask(with: "https://example.com/book", name: "book").resume()
    sim.backgroundApp()
    sim.run(until: SimTime(.seconds(1)))
    sim.terminateApp()
    sim.run(until: SimTime(.hours(1)))
    #expect(
      Self.lines(sim, Self.wakeKinds) == [
        "app.launch reason=user", "session.created session=S", "app.terminate reason=system",
        "app.launch reason=background", "session.created session=S", "delegate.handleEvents session=S",
        "delegate.didFinishDownloading task=book", "delegate.didComplete task=book",
        "delegate.didFinishEvents session=S", "app.completionHandlerCalled session=S", "app.suspend",
      ])
  }

  @Test(
    "force quit cancels with userForceQuitApplication, delivered at the next user launch, no background launch"
  )
  func forceQuit() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(resources: Self.oneMB, app: app)
    try app.sessions["S"]!.downloadTask(with: "https://example.com/book", name: "book").resume()
    sim.run(until: SimTime(.milliseconds(860)))
    sim.forceQuitApp()
    sim.run(until: SimTime(.hours(2)))
    sim.launchApp()
    sim.run(until: SimTime(.hours(3)))
    let order = Self.lines(sim, Self.wakeKinds)
    #expect(!order.contains("app.launch reason=background"))
    #expect(
      order.suffix(3) == [
        "app.launch reason=user", "session.created session=S",
        "delegate.didComplete task=book reason=userForceQuitApplication",
      ])
    let cancelled = try #require(Fixture.events(sim, "task.cancelled").first)
    #expect(cancelled["reason"] == "userForceQuitApplication")
    #expect(cancelled.time == SimTime(.milliseconds(860)))
    let error = try #require(app.completions.first?.1)
    #expect(error.code == .cancelled && error.cancelReason == .userForceQuitApplication)
    #expect(error.resumeData?.resumeOffset == 400_000)
  }

  @Test("sessionSendsLaunchEvents false: events wait for the user's launch")
  func noLaunchEvents() throws {
    var configuration = SessionConfiguration.background(withIdentifier: "S")
    configuration.sessionSendsLaunchEvents = false
    let app = TestApp([configuration])
    let sim = Fixture.simulation(resources: Self.tenMB, app: app)
    try app.sessions["S"]!.downloadTask(with: "https://example.com/book", name: "book").resume()
    sim.backgroundApp()
    sim.run(until: SimTime(.hours(1)))
    #expect(Fixture.events(sim, "app.resume").isEmpty)
    #expect(app.completions.isEmpty)
    sim.launchApp()
    sim.run(until: SimTime(.hours(2)))
    #expect(app.completions.count == 1)
  }

  @Test("Background App Refresh off: no wake; tasks cancelled with backgroundUpdatesDisabled on leaving")
  func backgroundAppRefreshOff() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(resources: Self.oneMB, app: app, backgroundAppRefresh: false)
    try app.sessions["S"]!.downloadTask(with: "https://example.com/book", name: "book").resume()
    sim.run(until: SimTime(.milliseconds(500)))
    sim.backgroundApp()
    sim.run(until: SimTime(.hours(1)))
    #expect(Fixture.events(sim, "task.cancelled").first?["reason"] == "backgroundUpdatesDisabled")
    #expect(Fixture.events(sim, "app.resume").isEmpty)
  }

  /// The cancellation is not a one-off at the moment the user leaves: a task the app resumes
  /// while it still runs in the background (its `backgroundRunTime`) is cancelled the same way,
  /// and never transfers; back in the foreground, tasks run again.
  @Test(
    "Background App Refresh off: a task resumed in the background is cancelled at once; in the foreground it runs"
  )
  func backgroundAppRefreshOffLaterTasks() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(resources: Self.oneMB, app: app, backgroundAppRefresh: false)
    sim.run(until: SimTime(.milliseconds(500)))
    sim.backgroundApp()
    sim.run(until: SimTime(.seconds(2)))
    let late = try app.sessions["S"]!.downloadTask(with: "https://example.com/book", name: "late")
    late.resume()
    #expect(late.error?.code == .cancelled)
    #expect(late.error?.cancelReason == .backgroundUpdatesDisabled)
    sim.run(until: SimTime(.minutes(1)))
    let cancelled = Fixture.events(sim, "task.cancelled")
    #expect(cancelled.count == 1)
    #expect(cancelled.first?["task"] == "late")
    #expect(cancelled.first?["reason"] == "backgroundUpdatesDisabled")
    #expect(Fixture.time(sim, "task.started", task: "late") == nil)

    sim.launchApp()
    let again = try app.sessions["S"]!.downloadTask(with: "https://example.com/book", name: "again")
    again.resume()
    sim.run(until: SimTime(.hours(1)))
    #expect(again.error == nil)
    #expect(Fixture.time(sim, "task.finished", task: "again") != nil)
  }

  @Test("a default session's transfer pauses while suspended and fails with -1001 past the request timeout")
  func defaultSessionSuspended() throws {
    let app = TestApp([.default(identifier: "D")])
    let sim = Fixture.simulation(resources: Self.oneMB, app: app)
    let task = try app.sessions["D"]!.downloadTask(with: "https://example.com/book", name: "book")
    task.resume()
    sim.run(until: SimTime(.milliseconds(500)))
    sim.backgroundApp()
    sim.run(until: SimTime(.hours(1)))
    // Suspended at 5.5 s, before finishing? No: it finishes at 2.06 s while in the background.
    #expect(task.error == nil)

    let app2 = TestApp([.default(identifier: "D")])
    let big = [Fixture.resource("https://example.com/book", size: 100_000_000)]
    let sim2 = Fixture.simulation(resources: big, app: app2)
    let task2 = try app2.sessions["D"]!.downloadTask(with: "https://example.com/book", name: "book")
    task2.resume()
    sim2.backgroundApp()
    sim2.run(until: SimTime(.hours(1)))
    let failed = try #require(Fixture.events(sim2, "task.failed").first)
    #expect(failed.time == SimTime(.seconds(65)))
    #expect(failed["error"] == "timedOut")
    #expect(Fixture.events(sim2, "task.paused").first?.time == SimTime(.seconds(5)))
  }

  @Test("a default session's tasks vanish when the app is terminated")
  func defaultSessionTerminated() throws {
    let app = TestApp([.default(identifier: "D")])
    let big = [Fixture.resource("https://example.com/book", size: 100_000_000)]
    let sim = Fixture.simulation(resources: big, app: app)
    try app.sessions["D"]!.downloadTask(with: "https://example.com/book", name: "book").resume()
    sim.run(until: SimTime(.seconds(2)))
    sim.terminateApp()
    sim.run(until: SimTime(.hours(1)))
    #expect(Fixture.events(sim, "task.lost").count == 1)
    #expect(Fixture.events(sim, "task.finished").isEmpty)
  }
}
