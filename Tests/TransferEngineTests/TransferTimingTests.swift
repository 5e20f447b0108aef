import SimKernel
import Testing

@testable import TransferEngine

@Suite("Network and transfer model")
struct TransferTimingTests {
  @Test("500 KB on 4 Mbps with 30 ms latency finishes at exactly 60 ms + 1 s")
  func singleDownloadTiming() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(
      resources: [Fixture.resource("https://example.com/a", size: 500_000)], app: app)
    let task = try app.sessions["S"]!.downloadTask(with: "https://example.com/a", name: "a")
    task.resume()
    sim.run(until: SimTime(.hours(1)))
    #expect(Fixture.time(sim, "task.finished", task: "a") == SimTime(.milliseconds(1060)))
    #expect(task.countOfBytesReceived == 500_000)
    #expect(task.state == .completed)
  }

  @Test("three downloads share the link max-min fairly and finish as the fluid model says")
  func threeSharing() throws {
    // 4 Mbps = 500,000 B/s. Sizes 250 KB, 500 KB, 1 MB start together after the 60 ms round trip.
    // Shares 1/3 each until the smallest is done: 750 KB moved at 1.5 s; then 1/2 each:
    // the 500 KB one needs 250 KB more = 500 KB total moved in 1.0 s -> 2.5 s; the last
    // needs 500 KB more alone at 500 KB/s -> 3.5 s. Plus 60 ms each.
    let app = TestApp([.background(withIdentifier: "S")])
    let sizes: [(String, Int64)] = [("small", 250_000), ("medium", 500_000), ("large", 1_000_000)]
    let sim = Fixture.simulation(
      resources: sizes.map { Fixture.resource("https://example.com/\($0.0)", size: $0.1) }, app: app)
    for (name, _) in sizes {
      try app.sessions["S"]!.downloadTask(with: "https://example.com/\(name)", name: name).resume()
    }
    sim.run(until: SimTime(.hours(1)))
    #expect(Fixture.time(sim, "task.finished", task: "small") == SimTime(.milliseconds(1560)))
    #expect(Fixture.time(sim, "task.finished", task: "medium") == SimTime(.milliseconds(2560)))
    #expect(Fixture.time(sim, "task.finished", task: "large") == SimTime(.milliseconds(3560)))
    let order = Fixture.events(sim, "task.finished").map { $0["task"]!.description }
    #expect(order == ["small", "medium", "large"])
  }

  @Test("a fifth download to one host waits for connectionLimit")
  func connectionLimit() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(
      resources: (1...5).map { Fixture.resource("https://example.com/f\($0)", size: 100_000) }, app: app)
    for i in 1...5 {
      try app.sessions["S"]!.downloadTask(with: "https://example.com/f\(i)", name: "f\(i)").resume()
    }
    let deferred = Fixture.events(sim, "task.deferred")
    #expect(deferred.count == 1)
    #expect(deferred.first?["task"] == "f5")
    #expect(deferred.first?["reason"] == "connectionLimit")
    sim.run(until: SimTime(.hours(1)))
    let started = try #require(Fixture.time(sim, "task.started", task: "f5"))
    let firstDone = try #require(Fixture.events(sim, "task.finished").first?.time)
    #expect(started == firstDone)
  }

  @Test("earliestBeginDate one hour ahead starts at one hour")
  func earliestBegin() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(resources: [Fixture.resource("https://example.com/a", size: 1000)], app: app)
    let task = try app.sessions["S"]!.downloadTask(with: "https://example.com/a", name: "a")
    task.earliestBeginDate = SimTime(.hours(1))
    task.resume()
    sim.run(until: SimTime(.days(1)))
    #expect(Fixture.time(sim, "task.started", task: "a") == SimTime(.hours(1)))
    #expect(Fixture.events(sim, "task.deferred").first?["reason"] == "earliestBegin")
  }
}

@Suite("Start order and session invalidation")
struct StartOrderTests {
  @Test("waiting tasks start by priority, then in the order they were resumed")
  func priorityOrder() throws {
    var configuration = SessionConfiguration.background(withIdentifier: "S")
    configuration.httpMaximumConnectionsPerHost = 1
    let app = TestApp([configuration])
    let sim = Fixture.simulation(
      resources: (1...4).map { Fixture.resource("https://example.com/f\($0)", size: 100_000) }, app: app)
    let priorities: [Double] = [0.5, 0.2, 0.9, 0.2]
    for (i, priority) in priorities.enumerated() {
      let task = try app.sessions["S"]!.downloadTask(with: "https://example.com/f\(i + 1)", name: "f\(i + 1)")
      task.priority = priority
      task.resume()
    }
    sim.run(until: SimTime(.hours(1)))
    let order = Fixture.events(sim, "task.started").map { $0["task"]!.description }
    #expect(order == ["f1", "f3", "f2", "f4"])
  }

  @Test(
    "invalidateAndCancel cancels every task; finishTasksAndInvalidate lets them finish; no new tasks after")
  func invalidation() throws {
    let app = TestApp([.background(withIdentifier: "A"), .background(withIdentifier: "B")])
    let sim = Fixture.simulation(
      resources: [Fixture.resource("https://example.com/a", size: 1_000_000)], app: app)
    let a = try app.sessions["A"]!.downloadTask(with: "https://example.com/a", name: "a")
    let b = try app.sessions["B"]!.downloadTask(with: "https://example.com/a", name: "b")
    a.resume()
    b.resume()
    sim.run(until: SimTime(.milliseconds(500)))
    var listed: [String] = []
    app.sessions["A"]!.getAllTasks { listed = $0.map(\.name) }
    #expect(listed == ["a"])
    app.sessions["A"]!.invalidateAndCancel()
    app.sessions["B"]!.finishTasksAndInvalidate()
    sim.run(until: SimTime(.hours(1)))
    #expect(a.error?.code == .cancelled)
    #expect(b.error == nil && b.countOfBytesReceived == 1_000_000)
    #expect(throws: SimAPIMisuse.self) { try app.sessions["B"]!.downloadTask(with: "https://example.com/a") }
  }
}
