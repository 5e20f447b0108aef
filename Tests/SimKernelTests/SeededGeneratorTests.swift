import Foundation
import SimKernel
import Testing

@Suite("SeededGenerator")
struct SeededGeneratorTests {
  /// First outputs of xoshiro256** seeded through SplitMix64, computed by an independent
  /// Python reimplementation of the reference C code at https://prng.di.unimi.it/ (not by this
  /// Swift code). A change here changes every simulation's random stream.
  @Test(
    "the first values of a seed are pinned",
    arguments: [
      (
        seed: UInt64(0),
        first: [0x99EC_5F36_CB75_F2B4, 0xBF6E_1F78_4956_452A, 0x1A5F_849D_4933_E6E0, 0x6AA5_94F1_262D_2D2C]
      ),
      (
        seed: 42,
        first: [0x1578_0B2E_0C2E_C716, 0x6104_D986_6D11_3A7E, 0xAE17_5332_39E4_99A1, 0xECB8_AD47_03B3_60A1]
      ),
    ] as [(seed: UInt64, first: [UInt64])])
  func pinnedSequence(seed: UInt64, first: [UInt64]) {
    var random = SeededGenerator(seed: seed)
    let values = (0..<first.count).map { _ in random.next() }
    #expect(values == first)
  }

  @Test("the same seed gives the same sequence; different seeds differ")
  func reproducible() {
    var a = SeededGenerator(seed: 123)
    var b = SeededGenerator(seed: 123)
    var c = SeededGenerator(seed: 124)
    let sa = (0..<1_000).map { _ in a.next() }
    let sb = (0..<1_000).map { _ in b.next() }
    let sc = (0..<1_000).map { _ in c.next() }
    #expect(sa == sb)
    #expect(sa != sc)
    #expect(zip(sa, sc).filter { $0 == $1 }.isEmpty)
  }

  @Test("nextUnit stays in [0, 1) and spreads over it")
  func unitInterval() {
    var random = SeededGenerator(seed: 5)
    var buckets = [Int](repeating: 0, count: 10)
    for _ in 0..<100_000 {
      let u = random.nextUnit()
      #expect(u >= 0 && u < 1)
      buckets[Int(u * 10)] += 1
    }
    #expect(buckets.allSatisfy { (9_500...10_500).contains($0) }, "buckets \(buckets)")
  }

  @Test(
    "uniform stays within its bounds",
    arguments: [(-1.0, 1.0), (0.0, 0.0), (1e6, 1e6 + 1), (-5e-3, -1e-3)])
  func uniformDouble(low: Double, high: Double) {
    var random = SeededGenerator(seed: 9)
    for _ in 0..<10_000 {
      let x = random.uniform(low...high)
      #expect(x >= low && x <= high)
    }
  }

  @Test(
    "uniform integers hit both ends of the range and nothing outside", arguments: [0...0, -3...3, 10...17])
  func uniformInt(range: ClosedRange<Int>) {
    var random = SeededGenerator(seed: 11)
    var seen = Set<Int>()
    for _ in 0..<2_000 {
      let x = random.uniform(range)
      #expect(range.contains(x))
      seen.insert(x)
    }
    #expect(seen == Set(range))
  }

  @Test("exponential has the requested mean", arguments: [0.25, 1.0, 1_000.0])
  func exponentialMean(mean: Double) {
    var random = SeededGenerator(seed: 17)
    let n = 200_000
    var sum = 0.0
    for _ in 0..<n {
      let x = random.exponential(mean: mean)
      #expect(x >= 0)
      sum += x
    }
    // The standard error of the sample mean is mean / sqrt(n), about 0.22% here.
    #expect(abs(sum / Double(n) - mean) < 0.01 * mean)
  }

  @Test("exponential durations are whole nanoseconds, at least one, with the requested mean")
  func exponentialDuration() {
    var random = SeededGenerator(seed: 3)
    let n = 100_000
    var total: Int64 = 0
    for _ in 0..<n {
      let d = random.exponential(mean: .microseconds(10))
      #expect(d.nanoseconds >= 1)
      total += d.nanoseconds
    }
    #expect(abs(Double(total) / Double(n) - 10_000) < 150)
    let shortest = random.exponential(mean: .zero)
    #expect(shortest == .nanoseconds(1))
  }

  @Test("choice reaches every element")
  func choiceCoversAll() {
    var random = SeededGenerator(seed: 21)
    let items = ["wifi", "cellular", "offline", "constrained", "expensive"]
    var seen = Set<String>()
    for _ in 0..<500 { seen.insert(random.choice(items)) }
    #expect(seen == Set(items))
    let only = random.choice(["only"])
    #expect(only == "only")
    let fromSlice = random.choice(items[2...3])
    #expect(fromSlice != "wifi")
  }

  /// The hand-written `log1p` must agree with the platform's to within 1e-14 relative, across
  /// the whole range the exponential draw uses, (-1, 0], including values near 0 where forming
  /// 1 + x first would lose most digits, and a few positive values for good measure.
  @Test("log1p matches Foundation's within 1e-14 relative")
  func log1pMatchesFoundation() {
    var inputs: [Double] = [
      0, -0.5, -1e-300, -1e-17, -1e-9, -0.2928932188, -0.7071067812, 1e-10, 0.5, 1, 3, 1e6,
    ]
    for e in stride(from: -60.0, through: 0, by: 0.25) {
      inputs.append(-Foundation.pow(2, e) * 0.999)
    }
    var random = SeededGenerator(seed: 0)
    for _ in 0..<20_000 { inputs.append(-random.nextUnit()) }
    var worst = 0.0
    for x in inputs {
      let mine = SeededGenerator.log1p(x)
      let reference = Foundation.log1p(x)
      let error = reference == 0 ? abs(mine) : abs((mine - reference) / reference)
      worst = max(worst, error)
    }
    #expect(worst < 1e-14, "worst relative error \(worst)")
    #expect(SeededGenerator.log1p(-1) == -.infinity)
    #expect(SeededGenerator.log1p(-2).isNaN)
  }
}
