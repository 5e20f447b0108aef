/// The simulation's only source of randomness: xoshiro256** seeded through SplitMix64.
///
/// Never the system generator: the same seed gives the same sequence on every run and machine.
/// See https://prng.di.unimi.it/ for both algorithms.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
  @usableFromInline var s0: UInt64
  @usableFromInline var s1: UInt64
  @usableFromInline var s2: UInt64
  @usableFromInline var s3: UInt64

  /// Expands a 64-bit seed into the 256-bit state with SplitMix64, as the authors advise.
  public init(seed: UInt64) {
    var x = seed
    func splitMix() -> UInt64 {
      x &+= 0x9E37_79B9_7F4A_7C15
      var z = x
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    s0 = splitMix()
    s1 = splitMix()
    s2 = splitMix()
    s3 = splitMix()
  }

  @inlinable public mutating func next() -> UInt64 {
    let result = rotl(s1 &* 5, 7) &* 9
    let t = s1 << 17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = rotl(s3, 45)
    return result
  }

  @inlinable func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 &- k)) }

  /// A uniform double in [0, 1) from the top 53 bits.
  @inlinable public mutating func nextUnit() -> Double {
    Double(next() >> 11) * 0x1.0p-53
  }

  /// A uniform double in `range`.
  @inlinable public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
    range.lowerBound + (range.upperBound - range.lowerBound) * nextUnit()
  }

  /// A uniform integer in `range`, without modulo bias (Lemire's method via the standard library).
  @inlinable public mutating func uniform(_ range: ClosedRange<Int>) -> Int {
    Int.random(in: range, using: &self)
  }

  /// An exponentially distributed value with the given mean (inverse-transform sampling).
  @inlinable public mutating func exponential(mean: Double) -> Double {
    -mean * Self.log1p(-nextUnit())
  }

  /// An exponentially distributed duration with the given mean, in whole nanoseconds (at least 1).
  @inlinable public mutating func exponential(mean: SimDuration) -> SimDuration {
    let ns = exponential(mean: Double(mean.nanoseconds)).rounded()
    return SimDuration(nanoseconds: Swift.max(1, ns >= 9.2e18 ? Int64.max : Int64(ns)))
  }

  /// One element of a non-empty collection, uniformly.
  @inlinable public mutating func choice<C: RandomAccessCollection>(_ items: C) -> C.Element {
    precondition(!items.isEmpty, "internal inconsistency: choice from an empty collection")
    let k = uniform(0...(items.count - 1))
    return items[items.index(items.startIndex, offsetBy: k)]
  }

  /// ln(1 + x) for x in (-1, 0], written here so results do not depend on the platform's libm.
  ///
  /// Uses the atanh series ln(y) = 2 * atanh((y - 1) / (y + 1)) after reducing y into
  /// [sqrt(1/2), sqrt(2)) by powers of two; accurate to a few ulps, identical on every machine.
  @inlinable static func log1p(_ x: Double) -> Double {
    var y = 1 + x
    if y <= 0 { return -Double.greatestFiniteMagnitude }
    var exponent = 0.0
    while y < 0.7071067811865476 {
      y *= 2
      exponent -= 1
    }
    while y >= 1.4142135623730951 {
      y /= 2
      exponent += 1
    }
    let z = (y - 1) / (y + 1)
    let z2 = z * z
    var term = z
    var sum = 0.0
    var k = 1.0
    while true {
      let next = sum + term / k
      if next == sum { break }
      sum = next
      term *= z2
      k += 2
    }
    return 2 * sum + exponent * 0.6931471805599453
  }
}
