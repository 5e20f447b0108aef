import BgsimFoundation
import Foundation
import Testing

/// The determinism check finds what differs between runs, and says what most likely made it.
@Suite struct DeterminismCheckTests {
  /// A world whose trace notes `values`, in that order, at `times` seconds (after the device's two
  /// lines at time 0, network and power).
  static func world(_ values: [String], at times: [Int64]) -> Simulation {
    let sim = Simulation(seed: 1)
    for (value, time) in zip(values, times) {
      sim.schedule(at: SimTime(.seconds(time))) {
        $0.emitNote("app.note", [TraceField("value", .string(value))])
      }
    }
    sim.run(until: SimTime(.minutes(1)))
    return sim
  }

  @Test func theSameWorldIsDeterministic() {
    let check = Simulation.checkDeterminism(runs: 4) { Self.world(["a", "b"], at: [1, 2]) }
    #expect(check.isDeterministic)
    #expect(check.runs == 4)
    #expect("\(check)".hasPrefix("deterministic: 4 runs"))
  }

  @Test func aValueThatChangesEveryRunIsNamedWallClock() throws {
    var run = 0
    let check = Simulation.checkDeterminism(runs: 3) { () -> Simulation in
      run += 1
      return Self.world(["a", "read at \(run)"], at: [1, 2])
    }
    let difference = try #require(check.difference)
    #expect(difference.run == 2)
    #expect(difference.line == 4)
    #expect(difference.expected?.contains("read at 1") == true)
    #expect(difference.actual?.contains("read at 2") == true)
    #expect(difference.likelyCauses.first?.hasPrefix("wall clock") == true)
  }

  @Test func theSameEventsInAnotherOrderAreNamedUnorderedCollections() throws {
    var run = 0
    let check = Simulation.checkDeterminism { () -> Simulation in
      run += 1
      return Self.world(run == 1 ? ["a", "b", "c"] : ["c", "a", "b"], at: [1, 1, 1])
    }
    let difference = try #require(check.difference)
    #expect(difference.line == 3)
    #expect(difference.likelyCauses.contains { $0.hasPrefix("unordered collections: the same events") })
  }

  @Test func anEventOneRunLacksIsNamedRealThreads() throws {
    var run = 0
    let check = Simulation.checkDeterminism { () -> Simulation in
      run += 1
      return Self.world(run == 1 ? ["a", "late"] : ["a"], at: [1, 30])
    }
    let difference = try #require(check.difference)
    #expect(difference.line == 4)
    #expect(difference.actual == nil)
    #expect(difference.likelyCauses.first?.hasPrefix("real threads") == true)
    #expect("\(check)".contains("(trace ended)"))
  }

  /// The bridge's own lints that name a cause come first.
  @Test func aLintThatNamesTheCauseComesFirst() throws {
    var run = 0
    let check = Simulation.checkDeterminism { () -> Simulation in
      run += 1
      let sim = Self.world(["a"], at: [1])
      sim.emitNote(
        "lint", [TraceField("rule", .string("callFromUndrainedQueue")), TraceField("run", .int(Int64(run)))])
      return sim
    }
    let difference = try #require(check.difference)
    #expect(difference.likelyCauses.first?.contains("the trace has the lint callFromUndrainedQueue") == true)
  }
}
