import BgsimFoundation
import Foundation
import Testing

/// `SimulatedApplication.shared`, the stand-in for `UIApplication.shared`: the live process's
/// application, a new one after a relaunch, nil while the app is not running.
@Suite struct SharedApplicationTests {
  /// Library code that reaches for the shared application from an app delegate method.
  final class ReachingDelegate: SimulatedAppDelegate {
    let application: SimulatedApplication
    var sharedAtLaunch: SimulatedApplication?
    init(_ application: SimulatedApplication) { self.application = application }
    func applicationDidFinishLaunching(_ application: SimulatedApplication) {
      sharedAtLaunch = SimulatedApplication.shared
    }
    func application(
      _ application: SimulatedApplication, handleEventsForBackgroundURLSession identifier: String,
      completionHandler: @escaping () -> Void
    ) { completionHandler() }
  }

  @Test func sharedIsTheLiveProcesssApplicationAcrossARelaunch() throws {
    let sim = Simulation(seed: 1, device: .wifi, server: ServerModel(resources: []))
    sim.installApp { ReachingDelegate($0) }
    var first: (own: SimulatedApplication?, shared: SimulatedApplication?, atLaunch: SimulatedApplication?)
    var second: (own: SimulatedApplication?, shared: SimulatedApplication?, atLaunch: SimulatedApplication?)
    var afterTermination: SimulatedApplication? = nil
    var terminated = false
    func look(_ sim: Simulation) -> (SimulatedApplication?, SimulatedApplication?, SimulatedApplication?) {
      let delegate = sim.currentAppDelegate as? ReachingDelegate
      return (delegate?.application, SimulatedApplication.shared, delegate?.sharedAtLaunch)
    }
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(10))) { first = look($0) }
    sim.schedule(at: SimTime(.seconds(20))) { $0.terminateApp() }
    sim.schedule(at: SimTime(.seconds(30))) { sim in
      terminated = sim.currentAppDelegate == nil
      afterTermination = SimulatedApplication.shared
    }
    sim.schedule(at: SimTime(.seconds(40))) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(50))) { second = look($0) }
    sim.run(until: SimTime(.minutes(1)))

    let firstApp = try #require(first.own)
    let secondApp = try #require(second.own)
    #expect(first.shared === firstApp)
    #expect(first.atLaunch === firstApp)
    #expect(terminated)
    #expect(afterTermination == nil)
    #expect(second.shared === secondApp)
    #expect(second.atLaunch === secondApp)
    #expect(firstApp !== secondApp)
  }
}
