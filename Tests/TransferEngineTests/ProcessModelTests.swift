import SimKernel
import Testing
import TransferEngine

/// An app that keeps only what it is told, to watch the engine's process model.
private final class ProcessApp: AppUnderTest {
  var launches: [LaunchReason] = []
  func didFinishLaunching(_ app: AppContext, reason: LaunchReason) { launches.append(reason) }
  func handleEventsForBackgroundURLSession(
    _ app: AppContext, identifier: String, completionHandler: BackgroundCompletionHandler
  ) { completionHandler() }
}

@Suite struct ProcessModelTests {
  @Test func theFactoryMakesAFreshAppAtEveryLaunchAndTheEngineDropsIt() {
    let sim = Simulation(seed: 1)
    var made = 0
    weak var first: ProcessApp?
    sim.install(factory: {
      made += 1
      let app = ProcessApp()
      if made == 1 { first = app }
      return app
    })
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in
      #expect(first != nil)
      sim.terminateApp()
      #expect(first == nil)
      #expect(sim.currentApp == nil)
    }
    sim.schedule(at: SimTime(.seconds(2))) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(3))) { $0.forceQuitApp() }
    sim.schedule(at: SimTime(.seconds(4))) { $0.launchApp() }
    sim.run(until: SimTime(.seconds(5)))
    #expect(made == 3)
  }

  @Test func installOfOneObjectIsAFactoryReturningIt() {
    let sim = Simulation(seed: 1)
    let app = ProcessApp()
    sim.install(app)
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { $0.terminateApp() }
    sim.schedule(at: SimTime(.seconds(2))) { $0.launchApp() }
    sim.run(until: SimTime(.seconds(3)))
    #expect(app.launches == [.user, .user])
    #expect(sim.currentApp === app)
  }

  @Test func timersRunLateWhileSuspendedAndNeverAfterTheProcessEnded() {
    let sim = Simulation(seed: 1)
    sim.install(factory: { ProcessApp() })
    var fired: [(String, SimTime)] = []
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in
      let context = AppContext(simulation: sim)
      context.after(.seconds(1)) { fired.append(("running", $0.now)) }
      // Backgrounded at 1 s, suspended after `backgroundRunTime`: due at 20 s, runs at 30 s.
      context.after(.seconds(19)) { fired.append(("suspended", $0.now)) }
      sim.backgroundApp()
    }
    sim.schedule(at: SimTime(.seconds(30))) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(31))) { sim in
      AppContext(simulation: sim).after(.seconds(10)) { fired.append(("dead", $0.now)) }
      sim.terminateApp()
    }
    // A new process at 35 s must not run the old process's timer at 41 s.
    sim.schedule(at: SimTime(.seconds(35))) { $0.launchApp() }
    sim.run(until: SimTime(.minutes(5)))
    #expect(fired.map(\.0) == ["running", "suspended"])
    #expect(fired.map(\.1) == [SimTime(.seconds(2)), SimTime(.seconds(30))])
  }
}

/// Downloads one file as soon as it launches.
private final class EagerApp: AppUnderTest, SimURLSessionDelegate {
  var session: SimURLSession?
  func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
    session = try? app.makeSession(configuration: .background(withIdentifier: "S"), delegate: self)
    try? session?.downloadTask(with: "https://example.com/a.zip").resume()
  }
  func handleEventsForBackgroundURLSession(
    _ app: AppContext, identifier: String, completionHandler: BackgroundCompletionHandler
  ) { completionHandler() }
}

@Suite struct WorldBeforeRunTests {
  /// The README's example launches the app before `run`: on a Wi-Fi device its first task must
  /// start at once, not wait for connectivity.
  @Test func callsBeforeRunSeeTheDeviceAtTimeZero() {
    let server = ServerModel(resources: [
      ServerResource(url: SimURL("https://example.com/a.zip")!, size: 1_000_000)
    ])
    let sim = Simulation(seed: 7, device: .wifi, server: server)
    sim.install(EagerApp())
    sim.launchApp()
    sim.run(until: SimTime(.minutes(1)))
    let kinds = sim.trace.events.map(\.kind)
    #expect(kinds.prefix(3) == ["network.change", "power.change", "app.launch"])
    #expect(!sim.trace.events.contains { $0.kind == "task.deferred" })
    #expect(sim.trace.events.contains { $0.kind == "task.started" && $0.time == .zero })
  }
}
