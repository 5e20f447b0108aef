import Foundation
import Testing

@testable import SweepKit

/// `ParallelRunner.map`, which sweeps, calibration and exploration run their simulations with:
/// results come back in job order whatever the number of threads.
@Suite struct ParallelRunnerTests {
  /// Uneven work, so threads finish out of order.
  static func work(_ i: Int) -> Int {
    var x = UInt64(i) &+ 1
    for _ in 0..<((i % 7) * 2_000) { x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407 }
    return i * 1_000 + Int(x % 1_000)
  }

  @Test("one thread and three give the same results in job order, and progress counts every job")
  func byIndex() {
    let one = ParallelRunner.map(count: 50, jobs: 1) { Self.work($0) }
    let reports = Reports()
    let three = ParallelRunner.map(count: 50, jobs: 3, progress: { reports.add($0) }) { Self.work($0) }
    #expect(three == one)
    #expect(one.map { $0 / 1_000 } == Array(0..<50))
    #expect(reports.seen == Array(1...50))
  }

  @Test("the items form (for the package's explorer) keeps the items' order, values not Sendable")
  func byItem() {
    final class Box { let value: Int; init(_ value: Int) { self.value = value } }
    let items = (0..<40).map(Box.init)
    let results = ParallelRunner.map(items, jobs: 3) { Self.work($0.value) }
    #expect(results == (0..<40).map(Self.work))
    #expect(ParallelRunner.map([Box](), jobs: 3) { $0.value }.isEmpty)
  }

  /// Progress reports, in the order they were made.
  final class Reports: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [Int] = []
    func add(_ done: Int) { lock.withLock { list.append(done) } }
    var seen: [Int] { lock.withLock { list } }
  }
}
