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

  /// ln(1 + x), written here so results do not depend on the platform's libm.
  ///
  /// A port of fdlibm's `log1p` (as in musl): reduce 1 + x to 2^k * (1 + f) with 1 + f in
  /// [sqrt(2)/2, sqrt(2)), carry the rounding error of forming 1 + x as a correction term `c`,
  /// then ln(1 + f) = f - f^2/2 + s * (f^2/2 + R(s^2)) with s = f / (2 + f) and R a fixed
  /// minimax polynomial. Under 1 ulp of error, the same bits on every machine, and several
  /// times faster than a series loop (the hold benchmark draws one value per event).
  ///
  /// An earlier version computed ln(1 + x) from the rounded 1 + x by a series: for |x| below
  /// about 1e-8 that loses most digits (x = -1e-17 gave 0), which this form avoids.
  @inlinable public static func log1p(_ x: Double) -> Double {
    let ln2Hi = 6.93147180369123816490e-01  // 0x3FE62E42_FEE00000
    let ln2Lo = 1.90821492927058770002e-10  // 0x3DEA39EF_35793C76
    let lg1 = 6.666666666666735130e-01  // 0x3FE55555_55555593
    let lg2 = 3.999999999940941908e-01  // 0x3FD99999_9997FA04
    let lg3 = 2.857142874366239149e-01  // 0x3FD24924_94229359
    let lg4 = 2.222219843214978396e-01  // 0x3FCC71C5_1D8E78AF
    let lg5 = 1.818357216161805012e-01  // 0x3FC74664_96CB03DE
    let lg6 = 1.531383769920937332e-01  // 0x3FC39A09_D078C69F
    let lg7 = 1.479819860511658591e-01  // 0x3FC2F112_DF3E5244

    let hx = UInt32(truncatingIfNeeded: x.bitPattern >> 32)
    var k = 1
    var c = 0.0
    var f = 0.0
    if hx < 0x3FDA_827A || hx >> 31 != 0 {  // 1 + x < sqrt(2)
      if hx >= 0xBFF0_0000 {  // x <= -1
        return x == -1 ? -.infinity : .nan
      }
      if hx << 1 < 0x3CA0_0000 << 1 {  // |x| < 2^-53
        return x
      }
      if hx <= 0xBFD2_BEC4 {  // sqrt(2)/2 <= 1 + x < sqrt(2): no reduction needed
        k = 0
        f = x
      }
    } else if hx >= 0x7FF0_0000 {  // inf or nan
      return x
    }
    if k != 0 {
      let u = 1 + x
      var hu = UInt32(truncatingIfNeeded: u.bitPattern >> 32)
      hu &+= 0x3FF0_0000 &- 0x3FE6_A09E
      k = Int(hu >> 20) - 0x3FF
      // Correction term ~ log(1 + x) - log(u), from the rounding error of u.
      if k < 54 {
        c = k >= 2 ? 1 - (u - x) : x - (u - 1)
        c /= u
      }
      // Reduce u into [sqrt(2)/2, sqrt(2)).
      hu = (hu & 0x000F_FFFF) &+ 0x3FE6_A09E
      let reduced = Double(bitPattern: UInt64(hu) << 32 | (u.bitPattern & 0xFFFF_FFFF))
      f = reduced - 1
    }
    let hfsq = 0.5 * f * f
    let s = f / (2.0 + f)
    let z = s * s
    let w = z * z
    let t1 = w * (lg2 + w * (lg4 + w * lg6))
    let t2 = z * (lg1 + w * (lg3 + w * (lg5 + w * lg7)))
    let r = t2 + t1
    let dk = Double(k)
    return s * (hfsq + r) + (dk * ln2Lo + c) - hfsq + f + dk * ln2Hi
  }
}
