import SimKernel
import Testing

@testable import TransferEngine

/// What stays alive after a run. A sweep runs thousands of simulations in one process: anything
/// a finished run keeps (a cycle between the app's session object, its daemon record and the
/// app) grows the process at every run.
@Suite("A released simulation lets go of its app, sessions and tasks")
struct TeardownTests {
  static let url = "https://example.com/a"

  /// Weak references to what one run made, taken after its simulation is released.
  struct Leftovers {
    weak var simulation: Simulation?
    weak var app: TestApp?
    weak var session: SimURLSession?
    weak var record: DaemonSession?
    weak var task: SimURLSessionTask?
  }

  /// Runs 1 s of a 50 MB download in a background session (the app still running and the task
  /// in flight when the run stops), then releases everything the test held.
  static func runAndRelease(_ configuration: SessionConfiguration) throws -> Leftovers {
    let app = TestApp([configuration])
    let sim = Fixture.simulation(resources: [Fixture.resource(url, size: 50_000_000)], app: app)
    let session = try #require(app.sessions[configuration.identifier])
    let task = try session.downloadTask(with: url, name: "a")
    task.resume()
    sim.run(until: SimTime(.seconds(1)))
    #expect(task.state == .running)
    #expect(sim.currentApp === app)
    return Leftovers(simulation: sim, app: app, session: session, record: session.record, task: task)
  }

  @Test(
    "nothing outlives a run that ended with the app running and a task in flight",
    arguments: [SessionConfiguration.background(withIdentifier: "S"), .default(identifier: "D")])
  func nothingOutlivesTheRun(_ configuration: SessionConfiguration) throws {
    let left = try Self.runAndRelease(configuration)
    #expect(left.simulation == nil)
    #expect(left.app == nil)
    #expect(left.session == nil)
    #expect(left.record == nil)
    #expect(left.task == nil)
  }
}
