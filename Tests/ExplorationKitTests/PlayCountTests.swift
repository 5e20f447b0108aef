import Foundation
import ScenarioKit
import SimKernel
import Testing

@testable import ExplorationKit

/// What an exploration plays: each run twice (the determinism oracle), the baseline and the
/// kill-point walk once each, a shrinking candidate once, and a finding not again.
@Suite struct PlayCountTests {
  /// Counts the worlds made (one per play), from any worker thread.
  final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() {
      lock.lock()
      count += 1
      lock.unlock()
    }
    var value: Int {
      lock.lock()
      defer { lock.unlock() }
      return count
    }
  }

  static func countingSubject(_ counter: Counter) -> ExplorationSubject {
    var subject = ScenarioExploration.subject(ScenarioExplorationTests.scenario)
    let make = subject.makeWorld
    subject.makeWorld = { seed in
      counter.add()
      return make(seed)
    }
    return subject
  }

  @Test func eachRunIsPlayedTwiceAndAFindingIsNotPlayedAgain() {
    let counter = Counter()
    let plan = ExplorationPlan(seeds: [], jobs: 2, worldSeed: ScenarioExplorationTests.scenario.seed)
    let report = Explorer.explore(Self.countingSubject(counter), plan: plan, property: nil)
    #expect(!report.findings.isEmpty)
    #expect(report.runs > 0)
    // The baseline, the kill-point walk, and two plays per run; the findings' faults (one
    // termination each) need no shrinking, and their trace and message come from their run.
    #expect(counter.value == 2 + 2 * report.runs)
  }

  @Test func aShrinkingCandidateIsPlayedOnceAndTheShrunkPlayIsKept() throws {
    let counter = Counter()
    let subject = Self.countingSubject(counter)
    let seed = ScenarioExplorationTests.scenario.seed
    let returns = FaultSet.all.userReturnsAfter
    let baseline = ExplorationRun.play(
      subject, faults: [], seed: seed, userReturnsAfter: returns, property: nil)
    // The termination at 2 s loses the events (the scenario's bug); the short network loss long
    // after the download does not.
    let kill = Fault.terminate(at: SimTime(.seconds(2)))
    let loss = Fault.network(at: SimTime(.minutes(50)), .offline, lasting: .seconds(5))
    let (raws, run) = Explorer.judge(
      subject, [kill, loss], seed: seed, returns: returns, baseline: baseline, property: nil, order: 0)
    let raw = try #require(raws.first { $0.rule == "terminationNotTransparent" })
    #expect(raw.faults == [kill, loss])
    #expect(run.applied == [kill, loss])
    let before = counter.value
    let shrunk = try #require(
      Explorer.shrink(raw, subject, seed: seed, returns: returns, baseline: baseline, property: nil))
    // Two candidates (the loss alone: no; the termination alone: yes), one play each.
    #expect(counter.value - before == 2)
    #expect(shrunk.applied == [kill])
    let again = ExplorationRun.play(
      subject, faults: [kill], seed: seed, userReturnsAfter: returns, property: nil)
    #expect(shrunk.outcome.trace.events == again.outcome.trace.events)
    #expect(
      shrunk.outcome.differences(from: baseline.outcome) == again.outcome.differences(from: baseline.outcome))
  }
}
