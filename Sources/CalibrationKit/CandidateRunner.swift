import ScenarioKit
import SimKernel
import SweepKit
import TransferEngine

/// Runs one candidate on the world with every seed and scores it against the log. A value
/// type with no shared state, so workers may call it at once.
struct CandidateEvaluator: Sendable {
  let world: Scenario
  let observed: ObservedEvents
  let knobs: [KnobRange]
  let seeds: [UInt64]

  /// The policy of one point (one value per knob, in `knobs` order).
  func policy(_ point: [Double]) -> Policy {
    var policy = world.policy
    for (knob, value) in zip(knobs, point) {
      // The range was checked when parsed and every candidate is snapped into it.
      try! PolicyJSON.set(knob.key, to: knob.text(value), in: &policy)
    }
    return policy
  }

  /// One run's score.
  func score(_ policy: Policy, seed: UInt64) -> CandidateScore {
    var variant = world
    variant.policy = policy
    let result = ScenarioRunner.run(variant, seed: seed)
    return CandidateScore.of(observed.match(result.trace.events), observed: observed.events)
  }

  /// The score summed over every seed.
  func score(_ point: [Double]) -> CandidateScore {
    let policy = self.policy(point)
    return seeds.reduce(CandidateScore(unmatched: 0, squaredError: 0, matched: 0)) {
      $0 + score(policy, seed: $1)
    }
  }
}

/// Runs candidate policies on the world and scores them against the log, in parallel through
/// SweepKit's `ParallelRunner` (one simulation per job), remembering every point it scored.
///
/// Results never depend on `jobs`: every job is an independent deterministic simulation.
final class CandidateRunner {
  let evaluator: CandidateEvaluator
  let jobs: Int
  private(set) var cache: [[Double]: CandidateScore] = [:]
  /// Simulations run so far.
  var simulations = 0

  var knobs: [KnobRange] { evaluator.knobs }
  var seeds: [UInt64] { evaluator.seeds }
  var observed: ObservedEvents { evaluator.observed }

  init(world: Scenario, observed: ObservedEvents, knobs: [KnobRange], seeds: [UInt64], jobs: Int) {
    var world = world
    world.expectations = []
    self.evaluator = CandidateEvaluator(world: world, observed: observed, knobs: knobs, seeds: seeds)
    self.jobs = jobs
  }

  /// The score of every point, simulating only the ones not scored before.
  func score(_ points: [[Double]]) -> [CandidateScore] {
    var fresh: [[Double]] = []
    var seen: Set<[Double]> = []
    for point in points where cache[point] == nil && seen.insert(point).inserted { fresh.append(point) }
    if !fresh.isEmpty {
      let policies = fresh.map(evaluator.policy)
      let evaluator = self.evaluator
      let seeds = self.seeds
      let scores = ParallelRunner.map(count: fresh.count * seeds.count, jobs: jobs) {
        (i: Int) -> CandidateScore in
        evaluator.score(policies[i / seeds.count], seed: seeds[i % seeds.count])
      }
      simulations += scores.count
      for (p, point) in fresh.enumerated() {
        cache[point] = scores[(p * seeds.count)..<((p + 1) * seeds.count)].reduce(
          CandidateScore(unmatched: 0, squaredError: 0, matched: 0), +)
      }
    }
    return points.map { cache[$0]! }
  }

  /// Records scores computed elsewhere (the local searches) so later batches reuse them.
  func remember(_ scored: [([Double], CandidateScore)]) {
    for (point, score) in scored where cache[point] == nil { cache[point] = score }
  }

  /// The best `count` distinct points scored so far, best first (ties: smaller values first).
  func best(_ count: Int) -> [([Double], CandidateScore)] {
    cache.sorted { a, b in
      a.value < b.value || (!(b.value < a.value) && a.key.lexicographicallyPrecedes(b.key))
    }
    .prefix(count).map { ($0.key, $0.value) }
  }

  /// The simulated partner of every observed event, per seed, for the residual table.
  func partners(_ point: [Double]) -> [[SimTime?]] {
    let policy = evaluator.policy(point)
    var world = evaluator.world
    world.policy = policy
    let variant = world
    let observed = self.observed
    let seeds = self.seeds
    return ParallelRunner.map(count: seeds.count, jobs: jobs) { (i: Int) -> [SimTime?] in
      observed.match(ScenarioRunner.run(variant, seed: seeds[i]).trace.events)
    }
  }
}
