import CalibrationKit
import Foundation
import ScenarioKit
import SimKernel
import Testing
import TransferEngine

/// Logs simulated with hidden knob values, calibrated from the app-visible events alone,
/// give the hidden values back (within 5%), and a knob that leaves no trace is unidentified.
@Suite struct ParameterRecoveryTests {
  static func fit(_ result: CalibrationResult, _ key: String) -> KnobFit {
    result.knobs.first { $0.knob.key == key }!
  }

  static func expectWithin5Percent(_ fit: KnobFit, _ truth: Double) {
    #expect(fit.status == .identified, "\(fit.knob.key) is \(fit.status)")
    #expect(abs(fit.value - truth) <= 0.05 * truth, "\(fit.knob.key): fitted \(fit.value), hidden \(truth)")
  }

  @Test func rateLimiterFirstDelayAndGrowthAreRecoveredAndBackgroundRunTimeIsUnidentified() throws {
    let hidden = CalibrationWorlds.oneEpisodePerWake(
      episodes: 6, policy: #"{"rateLimiter": {"firstDelay": "47s", "growth": 2.6}}"#)
    let log = try CalibrationWorlds.observedLog(hidden)
    #expect(log.allSatisfy { ObservableTrace.isObservable($0.kind) })
    #expect(!log.contains { $0.kind.hasPrefix("ratelimiter.") })
    let world = try CalibrationWorlds.load(CalibrationWorlds.oneEpisodePerWake(episodes: 6))
    let result = try Calibration.run(
      CalibrationRequest(
        world: world, log: log,
        knobs: [
          try CalibrationWorlds.knob("rateLimiter.firstDelay=20s..3m", world),
          try CalibrationWorlds.knob("rateLimiter.growth=1.2..4", world),
          try CalibrationWorlds.knob("backgroundRunTime=1s..8s", world),
        ],
        seeds: [world.seed], jobs: 2))
    #expect(result.matchesLog)
    Self.expectWithin5Percent(Self.fit(result, "rateLimiter.firstDelay"), 47)
    Self.expectWithin5Percent(Self.fit(result, "rateLimiter.growth"), 2.6)
    // The download ends after the app is suspended for any value in 1s..8s: no trace of it.
    #expect(Self.fit(result, "backgroundRunTime").status == .unidentified)
    #expect(result.policy.backgroundRunTime == world.policy.backgroundRunTime)
  }

  @Test func backgroundRunTimeIsRecoveredAndTheRateLimiterIsUnidentified() throws {
    let hidden = CalibrationWorlds.pausedInProcessDownload(policy: #"{"backgroundRunTime": "12s"}"#)
    let log = try CalibrationWorlds.observedLog(hidden)
    let world = try CalibrationWorlds.load(CalibrationWorlds.pausedInProcessDownload())
    let result = try Calibration.run(
      CalibrationRequest(
        world: world, log: log,
        knobs: [
          try CalibrationWorlds.knob("backgroundRunTime=2s..40s", world),
          try CalibrationWorlds.knob("rateLimiter.firstDelay=10s..5m", world),
        ],
        seeds: [1], jobs: 2))
    #expect(result.matchesLog)
    Self.expectWithin5Percent(Self.fit(result, "backgroundRunTime"), 12)
    #expect(Self.fit(result, "rateLimiter.firstDelay").status == .unidentified)
  }

  @Test func theResultDoesNotDependOnJobs() throws {
    let hidden = CalibrationWorlds.oneEpisodePerWake(
      episodes: 5, policy: #"{"rateLimiter": {"growth": 3.1}}"#)
    let log = try CalibrationWorlds.observedLog(hidden)
    let world = try CalibrationWorlds.load(CalibrationWorlds.oneEpisodePerWake(episodes: 5))
    func run(_ jobs: Int) throws -> String {
      let result = try Calibration.run(
        CalibrationRequest(
          world: world, log: log, knobs: [try CalibrationWorlds.knob("rateLimiter.growth=1.5..5", world)],
          seeds: [3], jobs: jobs))
      return CalibrationReport.fitJSON(result, world: "w", log: "l") + CalibrationReport.residualsCSV(result)
    }
    #expect(try run(1) == run(2))
  }
}

/// What the published iOS 12.4 observation says about the idle reset: a wake 70.88 s after a
/// 60 s delay still doubled it, so `idleResetFactor` is at least 70.88 / 60, with no upper bound.
@Suite struct IdleResetBoundTests {
  @Test func aWakeAfterTheDelayRanOutThatStillDoubledBoundsTheIdleResetFromBelow() throws {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Reports/calibration/ios-12.4-world.json")
    let world = try ScenarioLoader.load(path: file.path)
    // The observed log: what the app saw, plus the daemon's delays (Console's lines).
    let trace = ScenarioRunner.run(world).trace.events
    let log = trace.filter { ObservableTrace.isObservable($0.kind) || $0.kind == "ratelimiter.wake" }
    let result = try Calibration.run(
      CalibrationRequest(
        world: world, log: log,
        knobs: [try KnobRange.parse("rateLimiter.idleResetFactor=0.5..4", base: world.policy)], seeds: [1],
        jobs: 2))
    let fit = try #require(result.knobs.first)
    #expect(fit.status == .bounded)
    #expect(abs(fit.low - 70.879885 / 60) < 0.001, "fits from \(fit.low)")
    #expect(fit.high == 4)
    #expect(CalibrationReport.text(result).contains("bounded: at least 1.18"))
    #expect(!CalibrationReport.fitJSON(result, world: "w", log: "l").contains("idleResetFactor\": "))
  }
}
