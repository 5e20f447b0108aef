import BgsimFoundation
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An app delegate that only records what happens to it.
final class RecordingAppDelegate: SimulatedAppDelegate {
  let application: SimulatedApplication
  var fired: [String] = []
  init(_ application: SimulatedApplication) { self.application = application }
  func applicationDidFinishLaunching(_ application: SimulatedApplication) {}
  func application(
    _ application: SimulatedApplication, handleEventsForBackgroundURLSession identifier: String,
    completionHandler: @escaping () -> Void
  ) { completionHandler() }
}

@Suite struct BridgeProcessTests {
  @Test func aFreshDelegateAtEveryLaunchAndTheOldOneReleased() {
    let sim = Simulation(seed: 1)
    var made = 0
    weak var first: RecordingAppDelegate?
    sim.installApp { app in
      made += 1
      let delegate = RecordingAppDelegate(app)
      if made == 1 { first = delegate }
      return delegate
    }
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in
      #expect(first != nil)
      sim.terminateApp()
      #expect(first == nil)
      #expect(sim.currentAppDelegate == nil)
    }
    sim.schedule(at: SimTime(.seconds(2))) { $0.launchApp() }
    sim.run(until: SimTime(.seconds(3)))
    #expect(made == 2)
    #expect(sim.currentAppDelegate !== first)
  }

  @Test func theContainerSurvivesTerminationAndIsRemovedWithTheSimulation() throws {
    var container: URL?
    do {
      let sim = Simulation(seed: 1)
      sim.installApp { RecordingAppDelegate($0) }
      var sawFile = false
      sim.schedule(at: .zero) { $0.launchApp() }
      sim.schedule(at: SimTime(.seconds(1))) { sim in
        let app = (sim.currentAppDelegate as? RecordingAppDelegate)!.application
        try? Data("state".utf8).write(to: app.containerDirectory.appendingPathComponent("state.txt"))
        sim.terminateApp()
      }
      sim.schedule(at: SimTime(.seconds(2))) { $0.launchApp() }
      sim.schedule(at: SimTime(.seconds(3))) { sim in
        let app = (sim.currentAppDelegate as? RecordingAppDelegate)!.application
        sawFile =
          (try? String(
            contentsOf: app.containerDirectory.appendingPathComponent("state.txt"), encoding: .utf8))
          == "state"
      }
      sim.run(until: SimTime(.seconds(4)))
      #expect(sawFile)
      container = sim.appContainerDirectory
      #expect(FileManager.default.fileExists(atPath: try #require(container).path))
    }
    #expect(!FileManager.default.fileExists(atPath: try #require(container).path))
  }

  /// One container per simulation, whatever kind of app: the bridge's is the engine's.
  @Test func theBridgeContainerIsTheEnginesContainer() throws {
    var kept: URL?
    do {
      let sim = Simulation(seed: 1)
      sim.installApp { RecordingAppDelegate($0) }
      let url = try #require(sim.appContainerDirectory)
      #expect(
        url.standardizedFileURL.path == URL(fileURLWithPath: sim.containerDirectory).standardizedFileURL.path)
      sim.keepsAppContainer = true
      #expect(sim.keepsContainer)
      kept = url
    }
    let url = try #require(kept)
    #expect(FileManager.default.fileExists(atPath: url.path))
    try FileManager.default.removeItem(at: url)
  }

  @Test func timersRunLateWhileSuspendedAndNeverAfterDeath() {
    let sim = Simulation(seed: 1)
    sim.installApp { RecordingAppDelegate($0) }
    var fired: [(String, SimTime)] = []
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in
      let app = (sim.currentAppDelegate as? RecordingAppDelegate)!.application
      app.after(1) { fired.append(("running", sim.now)) }
      // Backgrounded at 1 s, suspended at 6 s: due at 20 s, runs when the user returns at 30 s.
      app.after(19) { fired.append(("suspended", sim.now)) }
      sim.backgroundApp()
    }
    sim.schedule(at: SimTime(.seconds(30))) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(31))) { sim in
      let app = (sim.currentAppDelegate as? RecordingAppDelegate)!.application
      app.after(10) { fired.append(("dead", sim.now)) }
      sim.terminateApp()
    }
    sim.schedule(at: SimTime(.seconds(35))) { $0.launchApp() }
    sim.run(until: SimTime(.minutes(5)))
    #expect(fired.map(\.0) == ["running", "suspended"])
    #expect(fired.map(\.1) == [SimTime(.seconds(2)), SimTime(.seconds(30))])
  }
}
