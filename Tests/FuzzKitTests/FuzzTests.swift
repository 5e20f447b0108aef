import Foundation
import ScenarioKit
import SimKernel
import Testing
@_spi(FaultInjection) import TransferEngine

@testable import FuzzKit

/// The fuzzer itself: its scenarios are valid and round-trip through JSON, the engine passes
/// them, and a deliberately injected engine bug is found and minimised.
@Suite("Fuzzing the engine")
struct FuzzTests {
  /// Seeds every `swift test` fuzzes (`bgsim fuzz --seeds 1-2000` is the longer run).
  static let seeds: ClosedRange<UInt64> = 1...300

  @Test("generated scenarios write as JSON that loads back and writes the same")
  func roundTrip() throws {
    for seed in UInt64(1)...100 {
      let scenario = ScenarioGenerator.scenario(seed: seed)
      let json = ScenarioJSONWriter.write(scenario)
      let loaded = try ScenarioLoader.load(data: Array(json.utf8), file: scenario.file)
      #expect(ScenarioJSONWriter.write(loaded) == json, "seed \(seed)")
      #expect(loaded.device == scenario.device && loaded.server == scenario.server, "seed \(seed)")
      #expect(
        loaded.policy == scenario.policy && loaded.app.sessions == scenario.app.sessions, "seed \(seed)")
    }
  }

  @Test("the largest seeds write as JSON that loads back with the same seed")
  func largestSeedsRoundTrip() throws {
    for seed in [UInt64(Int64.max) + 1, UInt64.max] {
      let json = ScenarioJSONWriter.write(ScenarioGenerator.scenario(seed: seed))
      #expect(json.contains("\"seed\": \(seed)"))
      #expect(try ScenarioLoader.load(data: Array(json.utf8), file: "s.json").seed == seed)
    }
  }

  @Test("the same seed gives the same scenario")
  func generatorIsDeterministic() {
    for seed in UInt64(1)...20 {
      #expect(
        ScenarioJSONWriter.write(ScenarioGenerator.scenario(seed: seed))
          == ScenarioJSONWriter.write(ScenarioGenerator.scenario(seed: seed)))
    }
  }

  @Test("fuzzed seeds break no invariant and replay byte for byte", arguments: 0..<6)
  func fuzzSeeds(batch: Int) {
    let size = UInt64(Self.seeds.count / 6)
    let first = Self.seeds.lowerBound + UInt64(batch) * size
    for seed in first..<(first + size) {
      if let failure = FuzzRunner.check(seed: seed) {
        Issue.record("seed \(seed): \(failure.signature)\n\(failure.details)")
      }
    }
  }

  @Test("the fuzz scenarios exercise what they are meant to")
  func coverage() {
    var seen: [String: Int] = [:]
    for seed in UInt64(1)...150 {
      let result = ScenarioRunner.run(ScenarioGenerator.scenario(seed: seed), checksInvariants: true)
      for event in result.trace.events {
        seen[event.kind, default: 0] += 1
        if case .string(let reason) = event["reason"] { seen["\(event.kind) \(reason)", default: 0] += 1 }
        if case .string(let rule) = event["rule"] { seen["lint \(rule)", default: 0] += 1 }
      }
    }
    for what in [
      "task.finished", "task.failed", "task.cancelled", "task.lost", "task.retry", "task.redirect",
      "task.interrupted networkLost", "task.interrupted connectionDropped", "task.deferred connectionLimit",
      "task.deferred rateLimiter", "task.deferred discretionary", "task.deferred earliestBegin",
      "app.launch background", "app.resume background", "app.terminate forceQuit",
      "delegate.didResumeAtOffset",
      "lint completionHandlerNeverCalled", "lint downloadedFileLost", "lint sessionNotRecreated",
      "session.invalidated", "server.change",
    ] {
      #expect(seen[what, default: 0] > 0, "no \(what) in 150 fuzz scenarios")
    }
  }

  @Test("an injected engine bug is found and minimised to a small scenario")
  func findsInjectedBug() throws {
    try EngineFaultInjection.$fault.withValue(.connectionLimitOffByOne) {
      var found: FuzzFailure?
      var seed: UInt64 = 1
      while found == nil && seed <= 500 {
        found = FuzzRunner.check(seed: seed)
        seed += 1
      }
      let failure = try #require(found, "no seed in 1-500 broke the connection limit")
      #expect(failure.signature == .invariant(.connectionLimit))
      var minimizer = Minimizer(signature: failure.signature)
      let small = minimizer.minimize(failure)
      #expect(small.signature == .invariant(.connectionLimit))
      // Two downloads past a limit of one, or so: a launch and a few tasks, no noise.
      #expect(small.scenario.timeline.count <= 4, "\(small.json)")
      #expect(small.scenario.server.changes.isEmpty && small.scenario.server.faults.isEmpty, "\(small.json)")
      #expect(small.scenario.itemCount < failure.scenario.itemCount)
      // The minimised file reproduces: it fails from its JSON with the fault, passes without.
      let loaded = try ScenarioLoader.load(data: Array(small.json.utf8), file: "min.json")
      #expect(FuzzRunner.checkLoaded(loaded, json: small.json)?.signature == .invariant(.connectionLimit))
      EngineFaultInjection.$fault.withValue(nil) {
        #expect(FuzzRunner.checkLoaded(loaded, json: small.json) == nil)
      }
    }
  }

  @Test("without the injected fault the same search finds nothing")
  func faultIsOffByDefault() {
    #expect(EngineFaultInjection.fault == nil)
  }
}
