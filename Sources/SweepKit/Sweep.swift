import ScenarioKit
import SimKernel
import TransferEngine

/// Runs a sweep: every grid point of a `SweepPlan` times every seed, each an independent
/// simulation of the scenario with that point's policy.
public enum Sweep {
  /// Runs the plan's runs that belong to `shard` (all when nil) on `jobs` worker threads and
  /// returns their rows in run order; identical for any `jobs`.
  public static func run(
    _ scenario: Scenario, plan: SweepPlan, jobs: Int = 1, shard: SweepShard? = nil,
    progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil
  ) throws(SweepError) -> RunTable {
    let policies = try plan.policies(base: scenario.policy)
    let runs = (0..<plan.runCount).filter { shard?.contains(run: $0) ?? true }
    let total = runs.count
    var report: (@Sendable (Int) -> Void)?
    if let progress { report = { done in progress(done, total) } }
    let rows: [[String]] = ParallelRunner.map(count: total, jobs: jobs, progress: report) {
      (i: Int) -> [String] in
      let run = runs[i]
      let (point, seed) = plan.run(run)
      var variant = scenario
      variant.policy = policies[point]
      let metrics = RunMetrics(ScenarioRunner.run(variant, seed: seed))
      return RunTable.row(run: run, values: plan.values(ofPoint: point), seed: seed, metrics: metrics)
    }
    return RunTable(header: RunTable.header(parameters: plan.parameters), rows: rows)
  }
}
