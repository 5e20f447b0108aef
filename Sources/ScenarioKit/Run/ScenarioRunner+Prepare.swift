import SimKernel
import TransferEngine

extension ScenarioRunner {
  /// The scenario's simulation with its scripted app installed and its timeline scheduled, not
  /// yet run: what `run` plays, for a caller that drives the run itself (an exploration stops it
  /// to inject faults). Expectations are not checked.
  public static func prepare(_ scenario: Scenario, seed: UInt64? = nil) -> Simulation {
    let seed = seed ?? scenario.seed
    let (scenario, conditions) = RandomConditions.streams(scenario, seed: seed)
    let sim = Simulation(
      seed: seed, device: scenario.device, server: scenario.server, policy: scenario.policy,
      conditions: conditions)
    let app = ScriptedAppStore(spec: scenario.app, simulation: sim)
    sim.install(factory: app.makeApp)
    for entry in scenario.timeline {
      sim.schedule(at: entry.at) { sim in
        switch entry.action {
        case .launch: sim.launchApp()
        case .background: sim.backgroundApp()
        case .terminate: sim.terminateApp()
        case .forceQuit: sim.forceQuitApp()
        case .reboot: sim.rebootDevice()
        case .app(let action): app.perform(action, path: entry.path)
        }
      }
    }
    return sim
  }
}
