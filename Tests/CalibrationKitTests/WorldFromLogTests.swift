import CalibrationKit
import ScenarioKit
import SimKernel
import Testing
import TransferEngine

@Suite struct WorldFromLogTests {
  /// A log as the recorder writes it (app-visible kinds only, user actions and the network
  /// path included) becomes a world whose calibration recovers the hidden knobs.
  @Test func aRecordedLogBecomesAWorldThatCalibrates() throws {
    let hidden = CalibrationWorlds.oneEpisodePerWake(
      episodes: 6, policy: #"{"rateLimiter": {"firstDelay": "75s", "growth": 1.8}}"#)
    let log = try CalibrationWorlds.observedLog(hidden)
    let json = try WorldFromLog.json(log, logFile: "logs/phone.jsonl")
    let world = try ScenarioLoader.load(data: Array(json.utf8), file: "world.json")
    #expect(world.name == "world-from-phone")
    #expect(world.app.behavior.reactions.count == 5)
    #expect(world.timeline.count == 3)
    let result = try Calibration.run(
      CalibrationRequest(
        world: world, log: log,
        knobs: [
          try KnobRange.parse("rateLimiter.firstDelay=20s..3m", base: world.policy),
          try KnobRange.parse("rateLimiter.growth=1.2..4", base: world.policy),
        ],
        seeds: [1], jobs: 2))
    #expect(result.matchesLog)
    let fits = Dictionary(uniqueKeysWithValues: result.knobs.map { ($0.knob.key, $0) })
    #expect(abs(fits["rateLimiter.firstDelay"]!.value - 75) < 0.05 * 75)
    #expect(abs(fits["rateLimiter.growth"]!.value - 1.8) < 0.05 * 1.8)
  }

  @Test func aLogWithoutAUserLaunchCannotBecomeAWorld() {
    let log = [TraceEvent(time: .zero, kind: "delegate.handleEvents", fields: [TraceField("session", "S")])]
    #expect {
      _ = try WorldFromLog.json(log, logFile: "x.jsonl")
    } throws: { error in
      (error as? CalibrationError)?.message.contains("no app.launch") == true
    }
  }
}
