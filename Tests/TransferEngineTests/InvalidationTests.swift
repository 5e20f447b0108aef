import SimKernel
import Testing

@testable import TransferEngine

/// `didBecomeInvalidWithError` and `getTasksWithCompletionHandler` in the engine's own API.
@Suite("Session invalidation and the task lists")
struct InvalidationTests {
  /// A delegate that records the order of its calls; the session is its only owner in some tests.
  final class Recorder: SimURLSessionDelegate {
    var calls: [String] = []
    func urlSession(
      _ session: SimURLSession, task: SimURLSessionTask, didCompleteWithError error: SimURLError?
    ) {
      calls.append("didComplete \(task.name) \(error?.code.name ?? "none")")
    }
    func urlSession(_ session: SimURLSession, didBecomeInvalidWithError error: SimURLError?) {
      calls.append("didBecomeInvalid \(session.identifier) \(error?.code.name ?? "nil")")
    }
  }

  /// A launched app (no sessions of its own) and a session made with `delegate`.
  static func world(_ delegate: SimURLSessionDelegate) throws -> (Simulation, SimURLSession) {
    let app = TestApp([])
    let sim = Fixture.simulation(
      resources: [
        Fixture.resource("https://example.com/a", size: 1_000_000),
        Fixture.resource("https://example.com/u", size: 0),
      ], app: app)
    let session = try AppContext(simulation: sim).makeSession(
      configuration: .background(withIdentifier: "S"), delegate: delegate)
    return (sim, session)
  }

  @Test("finishTasksAndInvalidate: running tasks finish, then didBecomeInvalidWithError(nil) once")
  func finishThenInvalid() throws {
    let recorder = Recorder()
    let (sim, session) = try Self.world(recorder)
    try session.downloadTask(with: "https://example.com/a", name: "a").resume()
    sim.run(until: SimTime(.milliseconds(500)))
    session.finishTasksAndInvalidate()
    session.finishTasksAndInvalidate()
    sim.run(until: SimTime(.seconds(1)))
    #expect(recorder.calls.isEmpty)
    sim.run(until: SimTime(.minutes(1)))
    #expect(recorder.calls == ["didComplete a none", "didBecomeInvalid S nil"])
  }

  @Test(
    "invalidateAndCancel: each task's cancellation, then didBecomeInvalidWithError; the delegate is let go")
  func cancelThenInvalid() throws {
    weak var released: Recorder?
    var calls: [String] = []
    do {
      let recorder = Recorder()
      released = recorder
      let (sim, session) = try Self.world(recorder)
      try session.downloadTask(with: "https://example.com/a", name: "a").resume()
      try session.uploadTask(with: "https://example.com/u", fromFileOfSize: 10, name: "u").resume()
      sim.run(until: SimTime(.milliseconds(30)))
      session.invalidateAndCancel()
      _ = recorder
      sim.run(until: SimTime(.seconds(1)))
      calls = recorder.calls
      withExtendedLifetime(session) {}
    }
    #expect(calls == ["didComplete a cancelled", "didComplete u cancelled", "didBecomeInvalid S nil"])
    #expect(released == nil)
  }

  @Test("the session keeps its delegate until didBecomeInvalidWithError, as URLSession does")
  func keepsDelegate() throws {
    weak var held: Recorder?
    let (sim, session): (Simulation, SimURLSession)
    do {
      let recorder = Recorder()
      held = recorder
      (sim, session) = try Self.world(recorder)
    }
    try session.downloadTask(with: "https://example.com/a", name: "a").resume()
    session.finishTasksAndInvalidate()
    #expect(held != nil)
    sim.run(until: SimTime(.seconds(1)))
    #expect(held != nil && held?.calls == [])
    sim.run(until: SimTime(.minutes(1)))
    #expect(held == nil)
  }

  @Test("a process that dies before the call gets none, and the next process is not called for it")
  func diedFirst() throws {
    let recorder = Recorder()
    let (sim, session) = try Self.world(recorder)
    try session.downloadTask(with: "https://example.com/a", name: "a").resume()
    session.finishTasksAndInvalidate()
    sim.terminateApp()
    sim.run(until: SimTime(.minutes(1)))
    sim.launchApp()
    sim.run(until: SimTime(.minutes(2)))
    #expect(!recorder.calls.contains { $0.hasPrefix("didBecomeInvalid") })
  }

  @Test("getTasksWithCompletionHandler: data, upload and download arrays of the tasks not completed")
  func threeArrays() throws {
    let (sim, session) = try Self.world(Recorder())
    let a = try session.downloadTask(with: "https://example.com/a", name: "a")
    let u = try session.uploadTask(with: "https://example.com/u", fromFileOfSize: 10, name: "u")
    let b = try session.downloadTask(with: "https://example.com/a", name: "b")
    b.cancel()
    var lists: ([String], [String], [String])?
    session.getTasksWithCompletionHandler { data, uploads, downloads in
      lists = (data.map(\.name), uploads.map(\.name), downloads.map(\.name))
    }
    #expect(lists?.0 == [] && lists?.1 == [u.name] && lists?.2 == [a.name])
    let traced = try #require(Fixture.events(sim, "session.allTasks").last)
    #expect(traced["tasks"] == .string("a,u"))
  }
}
