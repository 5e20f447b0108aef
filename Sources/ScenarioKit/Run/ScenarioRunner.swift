import SimKernel
import TransferEngine

/// What one run of a scenario produced.
public struct RunResult: Sendable {
  /// The scenario that ran.
  public var scenario: Scenario
  /// The seed the run used.
  public var seed: UInt64
  /// Everything that happened, in order.
  public var trace: TraceLog
  /// Simulated time when the run ended.
  public var endTime: SimTime
  /// The verdict on each `expect` item, in order.
  public var expectations: [ExpectationResult]
  /// A timeline or reaction entry that could not be played (app not running, unknown task...).
  public var runError: String?
  /// The engine invariant the run broke, when run with `checksInvariants` (the run stopped there).
  public var invariantViolation: InvariantViolation?
  /// The budget the run used up (it stopped there; `runError` says so), if any.
  public var budgetExceeded: BudgetExceeded?
  /// Bytes every attempt of every task moved on the wire, both directions.
  public var bytesOnWire: Int64 = 0
  /// Bytes moved and then thrown away because a transfer restarted from zero.
  public var bytesWasted: Int64 = 0
  /// Each task's `bytesWasted`, in the order the tasks were created (the order of their
  /// `task.created` events; the trace does not carry them): what `TaskAccounts` reads, exact for
  /// every task whatever its name.
  public var bytesWastedInCreationOrder: [Int64] = []
  /// `bytesWasted` by task name, summed over tasks of one name (a `String` key: names that
  /// differ only in their Unicode form are one key); derived when asked for
  /// (`TaskAccounts.wastedByName`).
  public var bytesWastedByTask: [String: Int64] {
    TaskAccounts.wastedByName(trace.events, inCreationOrder: bytesWastedInCreationOrder)
  }
  /// Engine events the run handled (`Simulation.processedEvents`), for `bgsim bench scripted`.
  public var engineEvents = 0

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
  /// Runs `scenario` with its scripted app, from `seed` (default the scenario's), with the
  /// engine's invariants checked when asked and within `budget`.
  public static func run(
    _ scenario: Scenario, seed: UInt64? = nil, checksInvariants: Bool = false, budget: RunBudget = .defaults
  ) -> RunResult {
    play(scenario, seed: seed, checksInvariants: checksInvariants, budget: budget, installApp: nil)
  }

  /// Runs the scenario's world (device, server, policy, lifecycle timeline, expectations) with an
  /// app the caller installs in place of the scripted one. The file must not script the app:
  /// timeline entries such as `download` and `app.behavior.on` reactions are refused, since the
  /// installed app does its own work.
  public static func run(
    _ scenario: Scenario, seed: UInt64? = nil, checksInvariants: Bool = false, budget: RunBudget = .defaults,
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
      play(scenario, seed: seed, checksInvariants: checksInvariants, budget: budget, installApp: install)
    }
  }

  private static func play(
    _ scenario: Scenario, seed: UInt64?, checksInvariants: Bool, budget: RunBudget,
    installApp: ((Simulation) -> Void)? = nil
  ) -> RunResult {
    let seed = seed ?? scenario.seed
    let (scenario, sim, app) = world(
      scenario, seed: seed,
      configure: { sim in
        sim.checksInvariants = checksInvariants
        sim.budget = budget
      }, installApp: installApp)
    sim.run(until: SimTime(scenario.duration))
    sim.checkFinalInvariants()
    let results = ExpectationEvaluator(trace: sim.trace, endTime: sim.now).evaluate(scenario.expectations)
    var runError = app.runError.map { "\(scenario.file): \($0)" }
    if let exceeded = sim.budgetExceeded {
      runError = "\(scenario.file): \(budgetMessage(exceeded, app: app))"
    }
    return RunResult(
      scenario: scenario, seed: seed, trace: sim.trace, endTime: sim.now, expectations: results,
      runError: runError, invariantViolation: sim.invariantViolation, budgetExceeded: sim.budgetExceeded,
      bytesOnWire: saturatingSum(sim.allTasks.lazy.map(\.bytesOnWire)),
      bytesWasted: saturatingSum(sim.allTasks.lazy.map(\.bytesWasted)),
      bytesWastedInCreationOrder: sim.allTasks.map(\.bytesWasted), engineEvents: sim.processedEvents)
  }

  /// What ran away, naming the reaction that looped when one ran often, and how to raise the limit.
  static func budgetMessage(_ exceeded: BudgetExceeded, app: ScriptedAppStore) -> String {
    var message = "the run stopped: \(exceeded)"
    if let (reaction, count) = app.busiestReaction, count >= 100 {
      let task = reaction.task.map { " of '\($0)'" } ?? ""
      message +=
        "; the reaction \(reaction.path) (on \(reaction.event.rawValue)\(task)) ran \(count) times, "
        + "starting new work each time: a loop unless it has 'times'"
    }
    return message + ". If the scenario means it, raise the limit with \(exceeded.limit.option) N"
  }

  /// A sum that stops at `Int64.max` instead of trapping (bytes of many huge transfers).
  static func saturatingSum<S: Sequence<Int64>>(_ values: S) -> Int64 {
    var total: Int64 = 0
    for value in values {
      let (sum, overflow) = total.addingReportingOverflow(value)
      total = overflow ? (value < 0 ? Int64.min : Int64.max) : sum
    }
    return total
  }
}
