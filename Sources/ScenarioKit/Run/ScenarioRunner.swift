import SimKernel
import TransferEngine

/// What one run of a scenario produced.
public struct RunResult: Sendable {
  public var scenario: Scenario
  public var seed: UInt64
  public var trace: TraceLog
  /// Simulated time when the run ended.
  public var endTime: SimTime
  public var expectations: [ExpectationResult]
  /// A timeline or reaction entry that could not be played (app not running, unknown task...).
  public var runError: String?
  /// The engine invariant the run broke, when run with `checksInvariants` (the run stopped there).
  public var invariantViolation: InvariantViolation?
  /// Bytes every attempt of every task moved on the wire, both directions.
  public var bytesOnWire: Int64 = 0
  /// Bytes moved and then thrown away because a transfer restarted from zero.
  public var bytesWasted: Int64 = 0

  /// True when the scenario could be played, broke no invariant and every expectation held.
  public var passed: Bool {
    runError == nil && invariantViolation == nil && expectations.allSatisfy(\.passed)
  }

  /// The expectations that did not hold.
  public var failedExpectations: [ExpectationResult] { expectations.filter { !$0.passed } }
}

/// Plays a validated scenario on the engine: builds the simulation, installs the scripted app,
/// schedules the timeline, runs to `duration` (or until nothing is pending) and checks `expect`.
public enum ScenarioRunner {
  public static func run(_ scenario: Scenario, seed: UInt64? = nil, checksInvariants: Bool = false)
    -> RunResult
  {
    play(scenario, seed: seed, checksInvariants: checksInvariants, installApp: nil)
  }

  /// Runs the scenario's world (device, server, policy, lifecycle timeline, expectations) with an
  /// app the caller installs in place of the scripted one. The file must not script the app:
  /// timeline entries such as `download` and `app.behavior.on` reactions are refused, since the
  /// installed app does its own work.
  public static func run(
    _ scenario: Scenario, seed: UInt64? = nil, checksInvariants: Bool = false,
    installingApp installApp: (Simulation) -> Void
  ) throws(ScenarioErrors) -> RunResult {
    var problems: [ScenarioProblem] = []
    for entry in scenario.timeline {
      if case .app(let action) = entry.action {
        problems.append(
          ScenarioProblem(
            kind: .unsupported, file: scenario.file, path: entry.path + ".do", position: nil,
            message:
              "'\(action.name)' scripts the app, but this run uses your Swift app; "
              + "remove the entry and have the app (or a test's Simulation.schedule) do it"))
      }
    }
    for reaction in scenario.app.behavior.reactions {
      problems.append(
        ScenarioProblem(
          kind: .unsupported, file: scenario.file, path: reaction.path, position: nil,
          message: "reactions script the app, but this run uses your Swift app; remove 'app.behavior.on'"))
    }
    guard problems.isEmpty else { throw ScenarioErrors(problems) }
    return withoutActuallyEscaping(installApp) { install in
      play(scenario, seed: seed, checksInvariants: checksInvariants, installApp: install)
    }
  }

  private static func play(
    _ scenario: Scenario, seed: UInt64?, checksInvariants: Bool, installApp: ((Simulation) -> Void)? = nil
  ) -> RunResult {
    let seed = seed ?? scenario.seed
    // Random conditions become ordinary steps and timeline entries: the engine never sees them.
    let scenario = RandomConditions.expand(scenario, seed: seed)
    let sim = Simulation(
      seed: seed, device: scenario.device, server: scenario.server, policy: scenario.policy)
    sim.checksInvariants = checksInvariants
    let app = ScriptedApp(spec: scenario.app, simulation: sim)
    if let installApp { installApp(sim) } else { sim.install(app) }
    for entry in scenario.timeline {
      sim.schedule(at: entry.at) { sim in
        switch entry.action {
        case .launch: sim.launchApp()
        case .background: sim.backgroundApp()
        case .terminate: sim.terminateApp()
        case .forceQuit: sim.forceQuitApp()
        case .app(let action): app.perform(action, path: entry.path)
        }
      }
    }
    sim.run(until: SimTime(scenario.duration))
    sim.checkFinalInvariants()
    let results = ExpectationEvaluator(trace: sim.trace, endTime: sim.now).evaluate(scenario.expectations)
    return RunResult(
      scenario: scenario, seed: seed, trace: sim.trace, endTime: sim.now, expectations: results,
      runError: app.runError.map { "\(scenario.file): \($0)" }, invariantViolation: sim.invariantViolation,
      bytesOnWire: sim.allTasks.reduce(0) { $0 + $1.bytesOnWire },
      bytesWasted: sim.allTasks.reduce(0) { $0 + $1.bytesWasted })
  }
}
