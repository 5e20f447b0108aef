import ScenarioKit
import SimKernel
import SweepKit
import TransferEngine

/// What to calibrate: a world, what a device observed in it, and the knobs to fit.
public struct CalibrationRequest: Sendable {
  /// The world: device, server, user actions and the app's behaviour. Its `policy` gives the
  /// knobs that are not fitted.
  public var world: Scenario
  /// The observed log as read by `TraceLogReader`.
  public var log: [TraceEvent]
  public var knobs: [KnobRange]
  public var seeds: [UInt64]
  public var jobs: Int
  /// Values whose RMS residual is within this many seconds of the best fit as well as it.
  public var tolerance: Double

  public init(
    world: Scenario, log: [TraceEvent], knobs: [KnobRange], seeds: [UInt64], jobs: Int = 1,
    tolerance: Double = 0.5
  ) {
    self.world = world
    self.log = log
    self.knobs = knobs
    self.seeds = seeds
    self.jobs = jobs
    self.tolerance = tolerance
  }
}

/// The outcome: the best policy, what the log says about each knob, and every residual.
public struct CalibrationResult: Sendable {
  public var request: CalibrationRequest
  public var observed: ObservedEvents
  /// The best point, one value per knob.
  public var point: [Double]
  public var score: CandidateScore
  /// Empty when no candidate matched the log's events.
  public var knobs: [KnobFit]
  /// The simulated time of each observed event at the best point, per seed (nil: no partner).
  public var partners: [[SimTime?]]
  public var simulations: Int

  /// True when the best candidate gives every observed event a simulated partner.
  public var matchesLog: Bool { score.unmatched == 0 }

  /// The fitted policy: the world's, with each identified knob at its value.
  public var policy: Policy {
    var policy = request.world.policy
    for fit in knobs where fit.status == .identified {
      try! PolicyJSON.set(fit.knob.key, to: fit.knob.text(fit.value), in: &policy)
    }
    return policy
  }
}

/// `bgsim calibrate`: replays the world under candidate policies and fits the knobs to the log.
public enum Calibration {
  public static func run(_ request: CalibrationRequest) throws(CalibrationError) -> CalibrationResult {
    let observed = ObservedEvents(log: request.log)
    guard !observed.events.isEmpty else {
      throw CalibrationError(
        "the log has no events an app observes (launches, delegate callbacks, tasks created); "
          + "record it with BgsimRecorder or 'bgsim run --trace-out'")
    }
    guard !request.knobs.isEmpty else { throw CalibrationError("give at least one --param KEY=LO..HI") }
    guard let runs = GridSearch.largestGridRuns(knobs: request.knobs.count, seeds: request.seeds.count),
      runs <= SweepLimits.maxRuns
    else {
      throw CalibrationError(
        "\(request.knobs.count) knobs over \(request.seeds.count) seeds make a search grid of more than "
          + "\(SweepLimits.maxRunsText) runs; fit fewer knobs at once or use fewer seeds")
    }
    let runner = CandidateRunner(
      world: request.world, observed: observed, knobs: request.knobs, seeds: request.seeds, jobs: request.jobs
    )
    _ = GridSearch.run(runner)
    let (point, score) = LocalSearch.run(runner)
    let knobs =
      score.unmatched == 0
      ? KnobIdentification.run(runner, best: point, score: score, tolerance: request.tolerance) : []
    return CalibrationResult(
      request: request, observed: observed, point: point, score: score, knobs: knobs,
      partners: runner.partners(point), simulations: runner.simulations)
  }
}
