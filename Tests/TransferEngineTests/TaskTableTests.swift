import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// The engine's table of task parts (`TaskTable`) and the app's handle on a task.
@Suite("Task parts live in the engine's table; the task is a handle")
struct TaskTableTests {
  static let url = "https://example.com/a"

  /// The task the app kept, and a weak reference to its simulation.
  struct Kept {
    let task: SimURLSessionTask
    weak var simulation: Simulation?
  }

  /// Runs a 1 MB download to its end (or 50 MB for 1 s, still in flight), then releases the
  /// simulation and the app and hands back only the task.
  static func keptTask(finishes: Bool) throws -> Kept {
    let app = TestApp([.background(withIdentifier: "S")])
    let size: Int64 = finishes ? 1_000_000 : 50_000_000
    let sim = Fixture.simulation(resources: [Fixture.resource(url, size: size)], app: app)
    let session = try #require(app.sessions["S"])
    let task = try session.downloadTask(with: url, name: "a")
    task.resume()
    sim.run(until: SimTime(.seconds(finishes ? 600 : 1)))
    return Kept(task: task, simulation: sim)
  }

  @Test("a task the app keeps answers after its simulation is released")
  func handleOutlivesSimulation() throws {
    let finished = try Self.keptTask(finishes: true)
    #expect(finished.simulation == nil)
    #expect(finished.task.state == .completed)
    #expect(finished.task.error == nil)
    #expect(finished.task.statusCode == 200)
    #expect(finished.task.countOfBytesReceived == 1_000_000)
    #expect(finished.task.countOfBytesExpectedToReceive == 1_000_000)
    #expect(finished.task.currentURL.string == Self.url)
    #expect(finished.task.sessionIdentifier == "S")

    let inFlight = try Self.keptTask(finishes: false)
    #expect(inFlight.simulation == nil)
    #expect(inFlight.task.state == .running)
    #expect(inFlight.task.countOfBytesReceived < 50_000_000)
  }

  @Test("a change of a task's machine keeps its session's count of active transfers")
  func activeTransfersFollowTheMachine() {
    let fixture = EngineFixture()
    let record = fixture.session("bg")
    let task = fixture.task("f", .download, in: record)
    let other = fixture.task("g", .download, in: record)
    #expect(record.activeTransfers == 0)
    _ = fixture.engine.tasks[task].machine.resume()
    #expect(record.activeTransfers == 0, "waiting is not active")
    _ = fixture.engine.tasks[task].machine.admit(at: .zero)
    #expect(record.activeTransfers == 1)
    _ = fixture.engine.tasks[task].machine.connected(up: false)
    #expect(record.activeTransfers == 1, "still the same transfer")
    // A change of another part leaves the count alone.
    fixture.engine.tasks[task].bytes.downloadResponse(size: 10, validator: nil, offset: 0, resumed: false)
    #expect(record.activeTransfers == 1)
    _ = fixture.engine.tasks[other].machine.resume()
    _ = fixture.engine.tasks[other].machine.admit(at: .zero)
    #expect(record.activeTransfers == 2)
    _ = fixture.engine.tasks[task].machine.end(.finished)
    #expect(record.activeTransfers == 1)
    _ = fixture.engine.tasks[other].machine.end(.cancelled)
    #expect(record.activeTransfers == 0)
  }

  @Test("the daemon's active transfers are its sessions' tasks connecting or moving bytes, in uid order")
  func activeTransfersInUIDOrder() {
    let fixture = EngineFixture()
    let first = fixture.session("bg")
    let second = fixture.session("other")
    let a = fixture.task("a", .download, in: first)
    let b = fixture.task("b", .download, in: second)
    let c = fixture.task("c", .download, in: first)
    let names = { fixture.engine.daemon.activeTransfers().map(\.name) }
    #expect(names() == [])
    // Started out of uid order, across two sessions.
    for task in [c, b, a] {
      _ = fixture.engine.tasks[task].machine.resume()
      _ = fixture.engine.tasks[task].machine.admit(at: .zero)
    }
    #expect(names() == ["a", "b", "c"])
    _ = fixture.engine.tasks[b].machine.end(.finished)
    #expect(names() == ["a", "c"])
    _ = fixture.engine.tasks[a].machine.end(.cancelled)
    #expect(names() == ["c"])
    #expect(first.activeTransfers == 1 && second.activeTransfers == 0)
  }

  @Test("a task's row keeps its place as the table grows, and each task reads its own")
  func rowsStayPut() {
    let fixture = EngineFixture()
    let record = fixture.session("bg")
    let first = fixture.task("t0", .download, in: record)
    let firstRow = first.row
    fixture.engine.tasks[first].httpMethod = "HEAD"
    // Past several blocks (16, 32, 64, ... rows).
    let tasks = [first] + (1..<200).map { fixture.task("t\($0)", .download, in: record) }
    #expect(fixture.engine.tasks.count == 200)
    #expect(first.row == firstRow)
    for (index, task) in tasks.enumerated() where index % 3 == 0 {
      _ = fixture.engine.tasks[task].machine.resume()
    }
    #expect(first.httpMethod == "HEAD")
    for (index, task) in tasks.enumerated() {
      #expect(task.uid == Int32(index))
      #expect(task.machine.isWaiting == (index % 3 == 0), "task \(index)")
      if index > 0 { #expect(task.httpMethod == "GET") }
    }
  }
}
