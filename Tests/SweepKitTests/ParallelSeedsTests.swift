import Foundation
import SweepKit
import Testing

/// `ParallelRunner.forEachSeed`, which `bgsim fuzz` runs its seeds with: outcomes come back in
/// seed order whatever the threads do, every seed once, up to the last seed a range can hold.
@Suite("seeds on threads, outcomes in order")
struct ParallelSeedsTests {
  /// A deterministic outcome whose cost varies by seed, so threads finish out of order.
  static func work(_ seed: UInt64) -> UInt64 {
    var x = seed &* 0x9E37_79B9_7F4A_7C15
    for _ in 0..<((seed % 7) * 3_000) { x = x &* 6_364_136_223_846_793_005 &+ 1 }
    return x
  }

  @Test("three threads hand back what one does, seed by seed, in order", arguments: [1, 3])
  func sameAsOneThread(perJob: UInt64) {
    func collect(jobs: Int) -> (tried: Int, seen: [UInt64], outcomes: [UInt64]) {
      var seen: [UInt64] = []
      var outcomes: [UInt64] = []
      let tried = ParallelRunner.forEachSeed(in: 5...104, jobs: jobs, perJob: perJob, { Self.work($0) }) {
        seen.append($0)
        outcomes.append($1)
      }
      return (tried, seen, outcomes)
    }
    let one = collect(jobs: 1)
    let three = collect(jobs: 3)
    #expect(one.tried == 100)
    #expect(one.seen == Array(5...104))
    #expect(three.tried == one.tried)
    #expect(three.seen == one.seen)
    #expect(three.outcomes == one.outcomes)
    #expect(one.outcomes == (5...104).map(Self.work))
  }

  @Test("a range that ends at the largest seed runs to it, without overflow")
  func lastSeeds() {
    var seen: [UInt64] = []
    let tried = ParallelRunner.forEachSeed(in: (UInt64.max - 9)...UInt64.max, jobs: 2, perJob: 2, { $0 }) {
      #expect($0 == $1)
      seen.append($0)
    }
    #expect(tried == 10)
    #expect(seen == Array((UInt64.max - 9)...UInt64.max))
    // A block as large as a caller may ask for does not overflow either.
    let all = ParallelRunner.forEachSeed(in: 1...10, jobs: 2, perJob: .max, { $0 }) { #expect($0 == $1) }
    #expect(all == 10)
  }

  @Test("keepGoing is asked before each block, and a stop leaves the rest unrun")
  func stopsBetweenBlocks() {
    var asked = 0
    var seen: [UInt64] = []
    let tried = ParallelRunner.forEachSeed(
      in: 1...1_000, jobs: 2, perJob: 4,
      keepGoing: {
        asked += 1
        return asked <= 2
      }, { $0 * 2 }
    ) { seed, outcome in
      #expect(outcome == seed * 2)
      seen.append(seed)
    }
    #expect(asked == 3)
    #expect(tried == 16)
    #expect(seen == Array(1...16))
  }
}
