import SimKernel
import Testing

@testable import TransferEngine

/// `willBeginDelayedRequest` (behavior.md, "Delayed requests").
@Suite("Delayed requests")
struct DelayedRequestTests {
  static let resources = [
    Fixture.resource("https://example.com/old", size: 1_000_000),
    Fixture.resource("https://example.com/new", size: 2_000_000),
    Fixture.resource("https://cdn.example.net/new", size: 3_000_000),
  ]

  /// A background app with one download of /old that may not start before 1 h.
  static func world(
    answer: ((SimURLSessionTask, SimURL) -> SimDelayedRequestDisposition)?, policy: Policy = .defaults,
    kind: SessionConfiguration = .background(withIdentifier: "S")
  ) throws -> (Simulation, TestApp) {
    let app = TestApp([kind])
    app.onDelayedRequest = answer
    let sim = Fixture.simulation(resources: Self.resources, policy: policy, app: app)
    let task = try app.sessions[kind.identifier]!.downloadTask(with: "https://example.com/old", name: "t")
    task.earliestBeginDate = SimTime(.hours(1))
    task.resume()
    return (sim, app)
  }

  static func kinds(_ sim: Simulation) -> [String] { sim.trace.events.map(\.kind) }

  @Test("a delegate without the method: the task starts at its date, nobody is asked, no wake for it")
  func notImplemented() throws {
    let (sim, _) = try Self.world(answer: nil)
    sim.backgroundApp()
    sim.run(until: SimTime(.hours(2)))
    #expect(!Self.kinds(sim).contains("delegate.willBeginDelayedRequest"))
    #expect(!sim.trace.events.contains { $0["reason"] == .string("delayedRequest") })
    #expect(Fixture.time(sim, "task.started", task: "t") == SimTime(.hours(1)))
    // The only wake is the one for the finished download.
    let resume = try #require(Fixture.events(sim, "app.resume").first)
    #expect(resume.time >= Fixture.time(sim, "task.finished", task: "t")!)
  }

  @Test("continueLoading: asked once at the date, the task starts after the answer")
  func continueLoading() throws {
    var asked: [(String, String)] = []
    let (sim, _) = try Self.world(answer: { task, url in
      asked.append((task.name, url.string))
      return .continueLoading
    })
    sim.run(until: SimTime(.minutes(59)))
    #expect(asked.isEmpty)
    #expect(Fixture.time(sim, "task.started", task: "t") == nil)
    sim.run(until: SimTime(.hours(2)))
    #expect(asked.map(\.0) == ["t"])
    #expect(asked.first?.1 == "https://example.com/old")
    let order = Self.kinds(sim).filter {
      ["delegate.willBeginDelayedRequest", "task.delayedRequestAnswered", "task.started"].contains($0)
    }
    #expect(order == ["delegate.willBeginDelayedRequest", "task.delayedRequestAnswered", "task.started"])
    #expect(sim.trace.events.first { $0.kind == "task.finished" }?["bytes"] == .int(1_000_000))
  }

  @Test("useNewRequest: the task fetches the new URL, in the new host's queue")
  func useNewRequest() throws {
    let (sim, _) = try Self.world(answer: { _, _ in
      .useNewRequest(url: Fixture.url("https://cdn.example.net/new"))
    })
    sim.run(until: SimTime(.hours(2)))
    let answered = try #require(Fixture.events(sim, "task.delayedRequestAnswered").first)
    #expect(answered["disposition"] == .string("useNewRequest"))
    #expect(answered["url"] == .string("https://cdn.example.net/new"))
    #expect(sim.trace.events.first { $0.kind == "task.finished" }?["bytes"] == .int(3_000_000))
  }

  @Test("cancel: the task ends with -999 as cancel() would, and never starts")
  func cancel() throws {
    let (sim, app) = try Self.world(answer: { _, _ in .cancel })
    sim.run(until: SimTime(.hours(2)))
    #expect(Fixture.time(sim, "task.started", task: "t") == nil)
    #expect(app.completions.map(\.0) == ["t"])
    #expect(app.completions.first?.1?.code == .cancelled)
  }

  @Test("a suspended app is woken to answer; a terminated one is relaunched")
  func wakesTheApp() throws {
    for terminate in [false, true] {
      let (sim, _) = try Self.world(answer: { _, _ in .continueLoading })
      sim.backgroundApp()
      if terminate { sim.schedule(at: SimTime(.minutes(10))) { $0.terminateApp() } }
      sim.run(until: SimTime(.hours(2)))
      let wake = try #require(
        sim.trace.events.first {
          ($0.kind == "app.resume" || $0.kind == "app.launch") && $0["reason"] == .string("background")
        })
      #expect(wake.kind == (terminate ? "app.launch" : "app.resume"))
      #expect(wake.time == SimTime(.hours(1)))
      let asked = try #require(Fixture.time(sim, "delegate.willBeginDelayedRequest", task: "t"))
      #expect(asked == SimTime(.hours(1)))
      #expect(Fixture.time(sim, "task.started", task: "t") == SimTime(.hours(1)))
    }
  }

  @Test("delayedRequest.wakesApp false: the question waits for the user to open the app")
  func noWake() throws {
    var policy = Policy.defaults
    policy.delayedRequest.wakesApp = false
    let (sim, _) = try Self.world(answer: { _, _ in .continueLoading }, policy: policy)
    sim.backgroundApp()
    sim.schedule(at: SimTime(.hours(3))) { $0.launchApp() }
    sim.run(until: SimTime(.hours(4)))
    let deferred = try #require(
      sim.trace.events.first { $0.kind == "task.deferred" && $0["reason"] == .string("delayedRequest") })
    #expect(deferred.time == SimTime(.hours(1)))
    #expect(Fixture.time(sim, "delegate.willBeginDelayedRequest", task: "t") == SimTime(.hours(3)))
    #expect(Fixture.time(sim, "task.started", task: "t") == SimTime(.hours(3)))
  }

  @Test("only when ready: no network at the date, the question comes when the network does")
  func onlyWhenReady() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    var asked: [SimTime] = []
    weak var running: Simulation?
    // Set before the session is made: the daemon notes what the delegate implements then.
    app.onDelayedRequest = { _, _ in
      asked.append(running?.now ?? .zero)
      return .continueLoading
    }
    let sim = Fixture.simulation(
      network: [
        Fixture.network(.wifi), Fixture.network(.none, at: .minutes(30)),
        Fixture.network(.wifi, at: .hours(2)),
      ],
      resources: Self.resources, app: app)
    running = sim
    let task = try app.sessions["S"]!.downloadTask(with: "https://example.com/old", name: "t")
    task.earliestBeginDate = SimTime(.hours(1))
    task.resume()
    sim.run(until: SimTime(.hours(3)))
    #expect(asked == [SimTime(.hours(2))])
  }

  @Test("a default session ignores earliestBeginDate: no wait, no question")
  func defaultSession() throws {
    let (sim, _) = try Self.world(answer: { _, _ in .cancel }, kind: .default(identifier: "D"))
    sim.run(until: SimTime(.minutes(1)))
    #expect(!Self.kinds(sim).contains("delegate.willBeginDelayedRequest"))
    #expect(Fixture.time(sim, "task.started", task: "t") == .zero)
  }
}
