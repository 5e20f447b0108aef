import SimKernel
import TransferEngine

extension ScenarioRunner {
  /// The scenario's simulation with its scripted app installed and its timeline scheduled, not
  /// yet run: what `run` plays, for a caller that drives the run itself (an exploration stops it
  /// to inject faults). Expectations are not checked.
  public static func prepare(_ scenario: Scenario, seed: UInt64? = nil) -> Simulation {
    world(scenario, seed: seed ?? scenario.seed, configure: { _ in }, installApp: nil).sim
  }

  /// The world `run` and `prepare` share: the simulation (with the scenario's random condition
  /// streams drawn from `seed`), `configure` applied before anything is installed, the scripted
  /// app installed (or `installApp`'s Swift app), and the timeline scheduled. Returns the
  /// scenario with its streams, the simulation and the scripted app's store (what it keeps
  /// across processes, and its run error).
  static func world(
    _ scenario: Scenario, seed: UInt64, configure: (Simulation) -> Void,
    installApp: ((Simulation) -> Void)?
  ) -> (scenario: Scenario, sim: Simulation, app: ScriptedAppStore) {
    // Random conditions are drawn during the run, one change at a time per stream.
    let (scenario, conditions) = RandomConditions.streams(scenario, seed: seed)
    let sim = Simulation(
      seed: seed, device: scenario.device, server: scenario.server, policy: scenario.policy,
      conditions: conditions)
    configure(sim)
    // The scripted app is made afresh at every launch; what it keeps across processes is the store's.
    let app = ScriptedAppStore(spec: scenario.app, simulation: sim)
    if let installApp { installApp(sim) } else { sim.install(factory: app.makeApp) }
    for entry in scenario.timeline {
      sim.schedule(at: entry.at) { sim in
        switch entry.action {
        case .launch: sim.launchApp()
        case .background: sim.backgroundApp()
        case .terminate: sim.terminateApp()
        case .forceQuit: sim.forceQuitApp()
        case .reboot: sim.rebootDevice()
        case .cancelContinuedProcessing(let identifier): sim.cancelContinuedProcessingByUser(identifier)
        case .app(let action): app.perform(action, path: entry.path)
        case .openExtension(let name): sim.openExtension(name)
        case .closeExtension(let name): sim.closeExtension(name)
        case .inExtension(let name, let action): app.perform(action, inExtension: name, path: entry.path)
        }
      }
    }
    return (scenario, sim, app)
  }
}
