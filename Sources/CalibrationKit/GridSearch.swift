import SweepKit

/// The deterministic search: a coarse grid over every knob's range, then grids that zoom in
/// around the best point until each knob's step is a thousandth of its range.
///
/// The grids are `SweepPlan`s (every combination of the knobs' values, first knob slowest),
/// so a round is exactly a sweep; ties go to the earlier grid point.
enum GridSearch {
  /// Points per knob in the coarse grid, by number of knobs: about 300 runs at most.
  static func coarseCount(knobs: Int) -> Int {
    switch knobs {
    case 1: return 41
    case 2: return 17
    case 3: return 7
    case 4: return 5
    default: return 3
    }
  }

  /// Runs of the largest grid the search makes (the coarse one), or nil past `Int.max`.
  static func largestGridRuns(knobs: Int, seeds: Int) -> Int? {
    var runs = seeds
    for _ in 0..<knobs {
      let (product, overflow) = runs.multipliedReportingOverflow(by: coarseCount(knobs: knobs))
      if overflow { return nil }
      runs = product
    }
    return runs
  }

  /// Points per knob in each zoom round.
  static func zoomCount(knobs: Int) -> Int { knobs <= 3 ? 5 : 3 }

  static let maxZoomRounds = 16

  /// The best point found and its score.
  static func run(_ runner: CandidateRunner) -> (point: [Double], score: CandidateScore) {
    let knobs = runner.knobs
    let n = coarseCount(knobs: knobs.count)
    var axes = knobs.map { knob in
      (0..<n).map { knob.snap(knob.low + (knob.high - knob.low) * Double($0) / Double(n - 1)) }
    }
    var steps = knobs.map { ($0.high - $0.low) / Double(n - 1) }
    var best = evaluate(grid: axes, runner)
    for _ in 0..<maxZoomRounds {
      let finished = zip(knobs, steps).allSatisfy { knob, step in
        step <= (knob.high - knob.low) / 1000 || step <= resolution(knob)
      }
      if finished { break }
      let m = zoomCount(knobs: knobs.count)
      axes = zip(knobs, zip(best.point, steps)).map { knob, center in
        let (value, step) = center
        var values: [Double] = []
        for i in 0..<m {
          let v = knob.snap(value - step + 2 * step * Double(i) / Double(m - 1))
          if !values.contains(v) { values.append(v) }
        }
        return values
      }
      steps = steps.map { $0 * 2 / Double(m - 1) }
      let round = evaluate(grid: axes, runner)
      if round.score < best.score { best = round }
    }
    return best
  }

  /// The finest step a knob can take.
  static func resolution(_ knob: KnobRange) -> Double {
    switch knob.unit {
    case .seconds: return 0.001
    case .factor: return 0.000_001
    case .integer: return 1
    }
  }

  /// Scores every combination of the axes' values and returns the best (earliest on ties).
  static func evaluate(grid axes: [[Double]], _ runner: CandidateRunner) -> (
    point: [Double], score: CandidateScore
  ) {
    let plan: SweepPlan
    do {
      plan = try SweepPlan(
        parameters: zip(runner.knobs, axes).map { knob, values in
          SweepParameter(key: knob.key, values: values.map(knob.text))
        },
        seeds: runner.seeds)
    } catch {
      // `Calibration.run` refused every search larger than the coarse grid allows.
      preconditionFailure("internal inconsistency: a calibration grid over the sweep limit: \(error.message)")
    }
    let points = (0..<plan.pointCount).map { point in
      zip(axes, plan.valueIndices(ofPoint: point)).map { $0[$1] }
    }
    let scores = runner.score(points)
    var bestIndex = 0
    for i in scores.indices where scores[i] < scores[bestIndex] { bestIndex = i }
    return (points[bestIndex], scores[bestIndex])
  }
}
