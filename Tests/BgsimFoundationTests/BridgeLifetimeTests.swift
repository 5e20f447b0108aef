import BgsimFoundation
import Dispatch
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Objects that outlive their process or their `Simulation`: a call on them does nothing, says
/// so once, and never traps; the bridge's own release of a dead process is not the app's fault.
@Suite struct BridgeLifetimeTests {
  static let episode = "https://example.com/e.mp3"

  static func world() -> Simulation {
    Simulation(
      seed: 1, server: ServerModel(resources: [ServerResource(url: SimURL(episode)!, size: 1_000_000)]))
  }

  static func lints(_ sim: Simulation) -> [String] {
    sim.trace.events.filter { $0.kind == "lint" }.compactMap { $0["rule"]?.description }
  }

  /// The simulation keeps its bridge and the bridge nothing of the simulation: released with a
  /// running app, both go, the container with them, and no later lookup finds the app.
  @Test func aReleasedSimulationTakesItsBridgeAndContainerWithIt() throws {
    weak var released: Simulation?
    var container: URL?
    do {
      let sim = Self.world()
      sim.installApp { PlainAppDelegate($0) }
      sim.schedule(at: .zero) { $0.launchApp() }
      sim.run(until: SimTime(.seconds(1)))
      #expect(sim.installedHost != nil)
      container = sim.appContainerDirectory
      released = sim
    }
    #expect(released == nil)
    let directory = try #require(container)
    #expect(!FileManager.default.fileExists(atPath: directory.path))
  }

  /// App code on its own queue touching a task after the test released its `Simulation` (it
  /// trapped: "Attempted to read an unowned reference").
  @Test func aTaskTouchedAfterItsSimulationIsGoneDoesNothing() {
    var kept: (session: URLSession, task: URLSessionDownloadTask)?
    do {
      let sim = Self.world()
      sim.installApp { PlainAppDelegate($0) }
      sim.schedule(at: .zero) { sim in
        sim.launchApp()
        let app = sim.currentAppDelegate as! PlainAppDelegate
        kept = (app.session, app.session.downloadTask(with: URL(string: Self.episode)!))
      }
      sim.run(until: SimTime(.seconds(1)))
    }
    guard let (session, task) = kept else { return #expect(Bool(false), "no task was made") }
    task.resume()
    task.suspend()
    task.cancel()
    task.earliestBeginDate = Date()
    _ = task.countOfBytesReceived
    session.getAllTasks { _ in }
    session.invalidateAndCancel()
    #expect(task.state == .suspended)
  }

  /// A task of a terminated process, resumed by code that outlived it: nothing starts, and one
  /// lint says why.
  @Test func aTaskOfADeadProcessDoesNothingAndIsNamedOnce() {
    let sim = Self.world()
    sim.installApp { PlainAppDelegate($0) }
    var task: URLSessionDownloadTask?
    sim.schedule(at: .zero) { sim in
      sim.launchApp()
      task = (sim.currentAppDelegate as! PlainAppDelegate).session.downloadTask(
        with: URL(string: Self.episode)!)
    }
    sim.schedule(at: SimTime(.seconds(10))) { $0.terminateApp() }
    sim.schedule(at: SimTime(.seconds(20))) { _ in
      task?.resume()
      task?.cancel()
    }
    sim.run(until: SimTime(.minutes(5)))
    #expect(!sim.trace.events.contains { $0.kind == "task.started" })
    // The process ended with the task never resumed (`taskNeverResumed`, at the termination);
    // the dead process's later calls are named once.
    #expect(Self.lints(sim) == ["taskNeverResumed", "callFromUndrainedQueue"])
  }

  /// A manager that invalidates its session in `deinit`, released by the bridge at termination:
  /// not a lint (it was "code of a terminated process called URLSession").
  @Test func aDeinitThatInvalidatesItsSessionIsNotLinted() {
    let sim = Self.world()
    let deinits = Outcome()
    sim.installApp { InvalidatingAppDelegate($0, deinits: deinits) }
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(10))) { $0.terminateApp() }
    sim.schedule(at: SimTime(.seconds(20))) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(30))) { $0.forceQuitApp() }
    sim.run(until: SimTime(.minutes(1)))
    #expect(deinits.value == "deinit")
    #expect(Self.lints(sim).isEmpty)
  }
}

/// Owns a manager that, like many libraries, invalidates its session when it is released.
final class InvalidatingAppDelegate: SimulatedAppDelegate {
  final class Manager {
    let session: URLSession
    let deinits: Outcome
    init(_ session: URLSession, deinits: Outcome) {
      self.session = session
      self.deinits = deinits
    }
    deinit {
      session.invalidateAndCancel()
      deinits.set("deinit")
    }
  }
  let plain: PlainAppDelegate
  let deinits: Outcome
  var manager: Manager?

  init(_ application: SimulatedApplication, deinits: Outcome) {
    plain = PlainAppDelegate(application)
    self.deinits = deinits
  }

  func applicationDidFinishLaunching(_ application: SimulatedApplication) {
    plain.applicationDidFinishLaunching(application)
    manager = Manager(plain.session, deinits: deinits)
  }

  func application(
    _ application: SimulatedApplication, handleEventsForBackgroundURLSession identifier: String,
    completionHandler: @escaping () -> Void
  ) {}
}
