/// What the log says about one knob once the best point is found: its value with the interval
/// of values that fit about as well, a one-sided bound, or nothing at all.
public struct KnobFit: Sendable {
  public enum Status: String, Sendable {
    /// The error rises on both sides within the range: the knob has a value.
    case identified
    /// The error rises on one side only: the log bounds the knob but does not pin it.
    case bounded
    /// The error stays within the tolerance over the whole range: the log says nothing.
    case unidentified
  }

  public var knob: KnobRange
  public var status: Status
  /// The best value the search found (meaningful only when identified).
  public var value: Double
  /// The values whose error stays within the tolerance of the best, around `value`.
  public var low: Double
  public var high: Double
  /// How much the RMS residual (seconds) rises when the knob moves 1% down or up from `value`,
  /// nil when that leaves the range or the events stop matching.
  public var risePerPercentDown: Double?
  public var risePerPercentUp: Double?
}

/// Profiles each knob around the best point: the knob alone across its range (41 values,
/// then bisection of each edge of the fitting interval), the others held at their fit.
enum KnobIdentification {
  static let profilePoints = 41
  static let bisections = 12

  static func run(_ runner: CandidateRunner, best: [Double], score: CandidateScore, tolerance: Double)
    -> [KnobFit]
  {
    let knobs = runner.knobs
    func with(_ k: Int, _ v: Double) -> [Double] {
      var p = best
      p[k] = v
      return p
    }
    func fits(_ s: CandidateScore) -> Bool {
      s.unmatched <= score.unmatched && s.rms <= score.rms + tolerance
    }
    // The profile of every knob in one parallel batch.
    var grids: [[Double]] = []
    for (k, knob) in knobs.enumerated() {
      var values = (0..<profilePoints).map {
        knob.snap(knob.low + (knob.high - knob.low) * Double($0) / Double(profilePoints - 1))
      }
      values.append(best[k])
      values = Array(Set(values)).sorted()
      grids.append(values)
    }
    let allPoints = grids.enumerated().flatMap { k, values in values.map { with(k, $0) } }
    var scores = runner.score(allPoints)[...]
    // Per knob: the fitting run of profile values around the best value, and the first misfit
    // on each side (nil when the run reaches the end of the range).
    var edges: [(inLow: Double, outLow: Double?, inHigh: Double, outHigh: Double?)] = []
    for (k, values) in grids.enumerated() {
      let s = Array(scores.prefix(values.count))
      scores = scores.dropFirst(values.count)
      let center = values.firstIndex(of: best[k])!
      var lo = center
      while lo > 0 && fits(s[lo - 1]) { lo -= 1 }
      var hi = center
      while hi < values.count - 1 && fits(s[hi + 1]) { hi += 1 }
      edges.append(
        (values[lo], lo > 0 ? values[lo - 1] : nil, values[hi], hi < values.count - 1 ? values[hi + 1] : nil))
    }
    // Bisect every open edge, all knobs at once per step.
    for _ in 0..<bisections {
      var probes: [(k: Int, low: Bool, v: Double)] = []
      for (k, e) in edges.enumerated() {
        if let out = e.outLow { probes.append((k, true, knobs[k].snap((out + e.inLow) / 2))) }
        if let out = e.outHigh { probes.append((k, false, knobs[k].snap((out + e.inHigh) / 2))) }
      }
      if probes.isEmpty { break }
      let s = runner.score(probes.map { with($0.k, $0.v) })
      for (probe, score) in zip(probes, s) {
        if probe.low {
          if fits(score) { edges[probe.k].inLow = probe.v } else { edges[probe.k].outLow = probe.v }
        } else {
          if fits(score) { edges[probe.k].inHigh = probe.v } else { edges[probe.k].outHigh = probe.v }
        }
      }
    }
    // How sharply the error rises 1% either side of the fit.
    var nudges: [[Double]] = []
    for (k, knob) in knobs.enumerated() {
      for factor in [0.99, 1.01] {
        let v = knob.snap(best[k] * factor)
        nudges.append(with(k, v))
      }
    }
    let nudged = runner.score(nudges)
    return knobs.enumerated().map { k, knob in
      let e = edges[k]
      let status: KnobFit.Status =
        switch (e.outLow == nil, e.outHigh == nil) {
        case (true, true): .unidentified
        case (false, false): .identified
        default: .bounded
        }
      func rise(_ i: Int, _ factor: Double) -> Double? {
        let target = best[k] * factor
        guard target >= knob.low, target <= knob.high, nudges[i][k] != best[k],
          nudged[i].unmatched <= score.unmatched
        else { return nil }
        return nudged[i].rms - score.rms
      }
      return KnobFit(
        knob: knob, status: status, value: best[k], low: e.inLow, high: e.inHigh,
        risePerPercentDown: rise(2 * k, 0.99), risePerPercentUp: rise(2 * k + 1, 1.01))
    }
  }
}
