import SimKernel
import Testing

@testable import TransferEngine

/// Data tasks, and data tasks in background sessions (behavior.md, "Data tasks").
@Suite("Data tasks")
struct DataTaskTests {
  /// 1 MB: done in well under a second on Wi-Fi; 200 MB: 32 s.
  static let resources = [
    Fixture.resource("https://example.com/small", size: 1_000_000),
    Fixture.resource("https://example.com/big", size: 200_000_000),
  ]

  static func kinds(_ sim: Simulation, task: String) -> [String] {
    sim.trace.events.filter { event in
      event.fields.contains { $0.key == "task" && $0.value == .string(task) }
    }.map(\.kind)
  }

  @Test("a data task hands the body over in memory: didReceiveData, then didComplete, no file")
  func defaultSession() throws {
    let app = TestApp([.default(identifier: "F")])
    let sim = Fixture.simulation(resources: Self.resources, app: app)
    try app.sessions["F"]!.dataTask(with: "https://example.com/small", name: "small").resume()
    sim.run(until: SimTime(.minutes(1)))
    #expect(
      Self.kinds(sim, task: "small") == [
        "task.created", "task.resume", "task.started", "task.finished", "delegate.didReceiveData",
        "delegate.didComplete",
      ])
    #expect(sim.trace.events.first { $0.kind == "task.created" }?["taskKind"] == .string("data"))
    #expect(sim.trace.events.first { $0.kind == "delegate.didReceiveData" }?["bytes"] == .int(1_000_000))
    #expect(!sim.trace.events.contains { $0.kind == "lint" })
  }

  @Test("in a background session it works while the app runs, with a lint")
  func backgroundWhileRunning() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(resources: Self.resources, app: app)
    try app.sessions["S"]!.dataTask(with: "https://example.com/small", name: "small").resume()
    sim.run(until: SimTime(.minutes(1)))
    #expect(app.completions.map(\.0) == ["small"])
    #expect(app.completions.first?.1 == nil)
    #expect(sim.trace.events.first { $0.kind == "lint" }?["rule"] == .string("dataTaskInBackgroundSession"))
  }

  @Test("suspension fails a background data task with -997; a download in the same session goes on")
  func backgroundSuspended() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(resources: Self.resources, app: app)
    try app.sessions["S"]!.dataTask(with: "https://example.com/big", name: "data").resume()
    try app.sessions["S"]!.downloadTask(with: "https://example.com/big", name: "file").resume()
    sim.backgroundApp()
    sim.run(until: SimTime(.hours(1)))
    let failed = try #require(sim.trace.events.first { $0.kind == "task.failed" })
    #expect(failed["task"] == .string("data"))
    #expect(failed["code"] == .int(-997))
    #expect(failed.time == SimTime(.seconds(5)))
    #expect(sim.trace.events.contains { $0.kind == "task.finished" && $0["task"] == .string("file") })
  }

  @Test("the app's process ending fails a background data task with -997")
  func backgroundTerminated() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(resources: Self.resources, app: app)
    try app.sessions["S"]!.dataTask(with: "https://example.com/big", name: "data").resume()
    sim.schedule(at: SimTime(.seconds(2))) { $0.terminateApp() }
    sim.run(until: SimTime(.hours(1)))
    let failed = try #require(sim.trace.events.first { $0.kind == "task.failed" })
    #expect(failed["code"] == .int(-997))
    #expect(failed.time == SimTime(.seconds(2)))
  }

  @Test("getTasksWithCompletionHandler lists data tasks in the first array, not with uploads")
  func listedAsDataTasks() throws {
    let app = TestApp([.default(identifier: "F")])
    let sim = Fixture.simulation(
      resources: Self.resources + [Fixture.resource("https://example.com/up", size: 0)], app: app)
    let session = app.sessions["F"]!
    try session.dataTask(with: "https://example.com/big", name: "data").resume()
    try session.uploadTask(with: "https://example.com/up", fromFileOfSize: 10_000_000, name: "up").resume()
    try session.downloadTask(with: "https://example.com/big", name: "file").resume()
    var names: [[String]] = []
    session.getTasksWithCompletionHandler { data, uploads, downloads in
      names = [data.map(\.name), uploads.map(\.name), downloads.map(\.name)]
    }
    #expect(names == [["data"], ["up"], ["file"]])
    _ = sim
  }
}
