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
    BridgeRegistry.register(host, for: self)
    outsideCodeRunner = { [weak host] body in
      guard let host else { return body() }
      host.runOutsideCode(body)
    }
    // The simulation keeps the host through this factory; each launch gets a new process.
    install(factory: { host.newProcess() })
  }

  /// The live process's delegate; nil while the app is not running.
  public var currentAppDelegate: SimulatedAppDelegate? { BridgeRegistry.host(for: self)?.currentDelegate }

  /// The app's container directory (nil before `installApp`): `containerDirectory` as a URL.
  public var appContainerDirectory: URL? { BridgeRegistry.host(for: self)?.container.url }

  /// Keep the container on disk after the simulation is released (to inspect it after a test);
  /// the same setting as `keepsContainer`.
  public var keepsAppContainer: Bool {
    get { keepsContainer }
    set { keepsContainer = newValue }
  }
}

/// Finds a simulation's bridge host (the engine keeps it as its installed app, privately).
enum BridgeRegistry {
  private struct Entry {
    weak var simulation: Simulation?
    weak var host: BridgeHost?
  }
  nonisolated(unsafe) private static var entries: [ObjectIdentifier: Entry] = [:]
  private static let lock = NSLock()

  static func register(_ host: BridgeHost, for simulation: Simulation) {
    lock.lock()
    defer { lock.unlock() }
    entries = entries.filter { $0.value.simulation != nil }
    entries[ObjectIdentifier(simulation)] = Entry(simulation: simulation, host: host)
  }

  /// The host whose app code the main thread runs now. The main queue is serial, so at most one
  /// simulation's app code runs there at a time, whatever thread each simulation runs on.
  nonisolated(unsafe) private static var mainThreadHost: BridgeHost?

  /// Runs `work` (on the main thread) as `host`'s app code, for `SimulatedApplication.shared`.
  static func runningOnMain(_ host: BridgeHost, _ work: () -> Void) {
    lock.lock()
    let outer = mainThreadHost
    mainThreadHost = host
    lock.unlock()
    work()
    lock.lock()
    mainThreadHost = outer
    lock.unlock()
  }

  /// The host whose app code runs on the main thread now, if the caller is on it.
  static var hostRunningOnMain: BridgeHost? {
    guard QueueDrain.isOnMainQueue else { return nil }
    lock.lock()
    defer { lock.unlock() }
    return mainThreadHost
  }

  /// The hosts whose simulation is alive, for `SimulatedApplication.shared`.
  static func hosts() -> [BridgeHost] {
    lock.lock()
    defer { lock.unlock() }
    return entries.values.compactMap { $0.simulation == nil ? nil : $0.host }
  }

  static func host(for simulation: Simulation) -> BridgeHost? {
    lock.lock()
    defer { lock.unlock() }
    guard let entry = entries[ObjectIdentifier(simulation)], entry.simulation === simulation else {
      return nil
    }
    return entry.host
  }
}

extension BridgeHost {
  /// Lints a background session identifier that changes across launches (seed 004 makes it
  /// `UUID().uuidString`): a launch creates a background identifier no earlier launch used while
  /// an earlier launch's session that had tasks is not recreated, so its events never arrive.
  func noteBackgroundIdentifier(_ configuration: SessionConfiguration, launch: Int) {
    guard configuration.kind == .background, let simulation else { return }
    let thisLaunch = identifiersByLaunch[launch, default: []]
    identifiersByLaunch[launch, default: []].append(configuration.identifier)
    guard !identifierChangeLinted else { return }
    let earlier = Set(identifiersByLaunch.filter { $0.key < launch }.flatMap(\.value))
    guard !earlier.isEmpty, !earlier.contains(configuration.identifier) else { return }
    let withTasks = Set(simulation.allTasks.map(\.sessionIdentifier))
    guard let abandoned = earlier.filter({ withTasks.contains($0) && !thisLaunch.contains($0) }).min() else {
      return
    }
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
