import BgsimFoundation
import ExplorationKit
import Foundation

/// Finds an app's lifecycle bugs without being told where they are (exploration.md): the
/// world once without faults, then a termination at every kill point and random faults per
/// seed, judged by oracles that need no knowledge of the app.
public enum Exploration {
  /// The app factory, as `Simulation.installApp` takes it.
  public typealias App = (SimulatedApplication) -> SimulatedAppDelegate

  /// Explores `world` with `app`. `seeds` draw the random faults; `jobs` worker threads (default:
  /// the machine's cores) give the same report as one. The world of every run is made with the
  /// first seed. `BGSIM_EXPLORE_SHARD=K/N` in the environment runs only part K of N of the kill
  /// points and seeds (for a CI matrix); a malformed value is reported as the one finding
  /// `invalidShard`, so the test fails saying how to fix it. `environment` is read for it.
  public static func run(
    _ world: ExplorationWorld, app: @escaping App, faults: FaultSet = .all,
    seeds: ClosedRange<UInt64> = 1...100, jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
    property: (@Sendable (ExplorationOutcome) -> String?)? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> ExplorationReport {
    let shard: Shard?
    switch ShardEnvironment.shard(in: environment) {
    case .success(let value): shard = value
    case .failure(let error):
      let finding = Finding(
        rule: "invalidShard", message: error.message, faults: [], seed: seeds.lowerBound, trace: [],
        replayScenario: "", reachedBy: 0)
      return ExplorationReport(findings: [finding], killPoints: 0, killPointsRun: 0, runs: 0)
    }
    let plan = ExplorationPlan(
      faults: faults, seeds: Array(seeds), jobs: jobs, shard: shard, worldSeed: seeds.lowerBound)
    return Explorer.explore(subject(world, app: app), plan: plan, property: property)
  }

  /// Plays one run again: the faults and seed a finding printed, judged against the baseline.
  public static func replay(
    _ world: ExplorationWorld, app: @escaping App, faults: [Fault], seed: UInt64,
    property: (@Sendable (ExplorationOutcome) -> String?)? = nil
  ) -> ExplorationReport {
    Explorer.replay(subject(world, app: app), faults: faults, seed: seed, property: property)
  }

  /// The world as the exploration sees it: the app installed, its container and its account.
  static func subject(_ world: ExplorationWorld, app: @escaping App) -> ExplorationSubject {
    ExplorationSubject(
      duration: world.duration, settle: world.settle,
      makeWorld: { seed in
        let sim = world.make(seed)
        sim.installApp(app)
        world.user(sim)
        return sim
      },
      container: { $0.appContainerDirectory },
      account: { ($0.currentAppDelegate as? UserVisibleState)?.userVisibleState() },
      pendingTimers: { $0.pendingAppTimers })
  }
}
