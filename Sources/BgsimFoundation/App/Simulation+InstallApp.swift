import Foundation
import SimKernel
import TransferEngine

extension Simulation {
  /// Installs an app written against Foundation. `makeDelegate` runs at every process launch
  /// (user or background); when the process ends the bridge drops every reference it holds to
  /// that process's delegate, sessions, tasks and queued work: only the container survives.
  public func installApp(_ makeDelegate: @escaping (SimulatedApplication) -> SimulatedAppDelegate) {
    let host = BridgeHost(
      simulation: self, container: AppContainer(directory: containerDirectory), makeDelegate: makeDelegate)
    SharedApplicationHosts.add(host)
    outsideCodeRunner = { [weak host] body in
      guard let host else { return body() }
      host.runOutsideCode(body)
    }
    // The simulation keeps the host; each launch gets a new process.
    install(host: host, factory: { host.newProcess() })
  }

  /// The bridge's side of this simulation, which the simulation keeps (nil before `installApp`).
  var bridgeHost: BridgeHost? { installedHost as? BridgeHost }

  /// The live process's delegate; nil while the app is not running.
  public var currentAppDelegate: SimulatedAppDelegate? { bridgeHost?.currentDelegate }

  /// The app's container directory (nil before `installApp`): `containerDirectory` as a URL.
  public var appContainerDirectory: URL? { bridgeHost?.container.url }

  /// Keep the container on disk after the simulation is released (to inspect it after a test);
  /// the same setting as `keepsContainer`.
  public var keepsAppContainer: Bool {
    get { keepsContainer }
    set { keepsContainer = newValue }
  }
}

extension BridgeHost {
  /// Lints a background session identifier that changes across launches (seed 004 makes it
  /// `UUID().uuidString`): a launch creates a background identifier no earlier launch used while
  /// an earlier launch's session that had tasks is not recreated, so its events never arrive.
  func noteBackgroundIdentifier(_ configuration: SessionConfiguration, launch: Int) {
    guard configuration.kind == .background, let simulation else { return }
    // Identifiers told apart by their bytes, as the daemon keeps sessions: one in another
    // Unicode normalization form names another session, whose tasks are abandoned.
    let identifier = WrittenKey(configuration.identifier)
    let thisLaunch = Set(identifiersByLaunch[launch, default: []])
    identifiersByLaunch[launch, default: []].append(identifier)
    guard !identifierChangeLinted else { return }
    let earlier = Set(identifiersByLaunch.filter { $0.key < launch }.flatMap(\.value))
    guard !earlier.isEmpty, !earlier.contains(identifier) else { return }
    let withTasks = Set(simulation.allTasks.map { WrittenKey($0.sessionIdentifier) })
    guard let abandoned = earlier.filter({ withTasks.contains($0) && !thisLaunch.contains($0) }).min()?.text
    else { return }
    identifierChangeLinted = true
    simulation.emitNote(
      "lint",
      [
        TraceField("rule", .string(LintRule.sessionIdentifierChanged.rawValue)),
        TraceField(
          "message",
          .string(
            "launch \(launch) created background session '\(configuration.identifier)' instead of "
              + "'\(abandoned)', whose tasks an earlier launch started; use the same fixed identifier at "
              + "every launch (not UUID().uuidString)")),
        TraceField("session", .string(configuration.identifier)),
      ])
  }
}
