import SweepKit

/// The refinement after the grids: Nelder-Mead simplex searches, one from each of the best
/// points the grids found, run side by side on `ParallelRunner` (each search is sequential).
///
/// Grids aligned with the knobs' axes lose a narrow tilted valley (a shorter `firstDelay` with
/// a larger `growth` fits nearly as well), which a simplex follows. Deterministic: the starts,
/// the moves and the tie-breaking never depend on `jobs`.
enum LocalSearch {
  static let starts = 4
  static let maxEvaluationsPerKnob = 80

  static func run(_ runner: CandidateRunner) -> (point: [Double], score: CandidateScore) {
    let evaluator = runner.evaluator
    let starts = runner.best(Self.starts)
    let results = ParallelRunner.map(count: starts.count, jobs: runner.jobs) { (i: Int) -> Outcome in
      simplex(from: starts[i].0, score: starts[i].1, evaluator)
    }
    for outcome in results {
      runner.simulations += outcome.scored.count * evaluator.seeds.count
      runner.remember(outcome.scored)
    }
    return runner.best(1)[0]
  }

  struct Outcome: Sendable {
    var scored: [([Double], CandidateScore)]
  }

  /// One Nelder-Mead search in coordinates scaled to [0, 1] per knob.
  static func simplex(from start: [Double], score startScore: CandidateScore, _ evaluator: CandidateEvaluator)
    -> Outcome
  {
    let knobs = evaluator.knobs
    let k = knobs.count
    var scored: [([Double], CandidateScore)] = []
    var memo: [[Double]: CandidateScore] = [start: startScore]
    func point(_ u: [Double]) -> [Double] {
      zip(knobs, u).map { knob, x in knob.snap(knob.low + min(max(x, 0), 1) * (knob.high - knob.low)) }
    }
    func f(_ u: [Double]) -> (Double, [Double]) {
      let p = point(u)
      if let known = memo[p] { return (cost(known), p) }
      let s = evaluator.score(p)
      memo[p] = s
      scored.append((p, s))
      return (cost(s), p)
    }
    let u0 = zip(knobs, start).map { knob, x in (x - knob.low) / (knob.high - knob.low) }
    var simplex: [[Double]] = [u0]
    for i in 0..<k {
      var u = u0
      u[i] = u[i] + (u[i] > 0.5 ? -0.05 : 0.05)
      simplex.append(u)
    }
    var values = simplex.map { f($0).0 }
    let budget = maxEvaluationsPerKnob * k
    while scored.count < budget {
      let order = values.indices.sorted { values[$0] < values[$1] || (values[$0] == values[$1] && $0 < $1) }
      simplex = order.map { simplex[$0] }
      values = order.map { values[$0] }
      let spread = (1...k).map { i in zip(simplex[i], simplex[0]).map { abs($0 - $1) }.max() ?? 0 }.max() ?? 0
      if spread < 1e-6 { break }
      let centroid = (0..<k).map { d in simplex[0..<k].map { $0[d] }.reduce(0, +) / Double(k) }
      func along(_ t: Double) -> [Double] { zip(centroid, simplex[k]).map { c, w in c + t * (c - w) } }
      let reflected = along(1)
      let fr = f(reflected).0
      if fr < values[0] {
        let expanded = along(2)
        let fe = f(expanded).0
        if fe < fr {
          (simplex[k], values[k]) = (expanded, fe)
        } else {
          (simplex[k], values[k]) = (reflected, fr)
        }
      } else if fr < values[k - 1] {
        (simplex[k], values[k]) = (reflected, fr)
      } else {
        let contracted = fr < values[k] ? along(0.5) : along(-0.5)
        let fc = f(contracted).0
        if fc < min(fr, values[k]) {
          (simplex[k], values[k]) = (contracted, fc)
        } else {
          for i in 1...k {
            simplex[i] = zip(simplex[0], simplex[i]).map { b, x in b + 0.5 * (x - b) }
            values[i] = f(simplex[i]).0
          }
        }
      }
    }
    return Outcome(scored: scored)
  }

  /// One number to minimise: unmatched events first, then the squared error.
  static func cost(_ s: CandidateScore) -> Double { Double(s.unmatched) * 1e30 + s.squaredError }
}
