import ScenarioKit
import SimKernel
import TransferEngine

/// One knob to fit and the closed range to search, from `--param KEY=LO..HI`.
///
/// Values are plain numbers in the knob's unit (seconds for durations), so the search does
/// arithmetic on them; `text(_:)` turns one back into what `PolicyJSON.set` reads.
public struct KnobRange: Hashable, Sendable {
  public enum Unit: String, Hashable, Sendable {
    /// A duration knob; values are seconds, candidates are whole milliseconds.
    case seconds
    /// A real factor such as `growth`.
    case factor
    /// A whole number such as `maxConnectionsPerHost`.
    case integer
  }

  /// The knob's dotted name without `policy.`.
  public var key: String
  public var unit: Unit
  public var low: Double
  public var high: Double

  public init(key: String, unit: Unit, low: Double, high: Double) {
    self.key = key
    self.unit = unit
    self.low = low
    self.high = high
  }

  /// Parses `KEY=LO..HI` (`rateLimiter.firstDelay=20s..3m`, `rateLimiter.growth=1.2..4`).
  public static func parse(_ text: String, base: Policy) throws(CalibrationError) -> KnobRange {
    let example = "such as rateLimiter.firstDelay=20s..3m or rateLimiter.growth=1.2..4"
    guard let eq = text.firstIndex(of: "="), let dots = text.range(of: "..") else {
      throw CalibrationError("--param expects KEY=LO..HI \(example), found '\(text)'")
    }
    var key = String(text[..<eq])
    if key.hasPrefix("policy.") { key.removeFirst("policy.".count) }
    let lowText = String(text[text.index(after: eq)..<dots.lowerBound])
    let highText = String(text[dots.upperBound...])
    guard !lowText.isEmpty, !highText.isEmpty else {
      throw CalibrationError("--param \(key): expected LO..HI with both ends given, found '\(text)'")
    }
    if let current = PolicyJSON.value(of: key, in: base),
      current == "true" || current == "false" || current.hasPrefix("[")
    {
      throw CalibrationError(
        "--param \(key): calibrate searches durations and numbers; \(key) takes \(current) (set it in the world)"
      )
    }
    var policy = base
    let low: String
    let high: String
    do {
      try PolicyJSON.set(key, to: lowText, in: &policy)
      low = PolicyJSON.value(of: key, in: policy) ?? ""
      try PolicyJSON.set(key, to: highText, in: &policy)
      high = PolicyJSON.value(of: key, in: policy) ?? ""
    } catch {
      throw CalibrationError("--param \(text): \(error.message)")
    }
    let unit: Unit
    let lo: Double
    let hi: Double
    if low.hasPrefix("\""), high.hasPrefix("\"") {
      unit = .seconds
      guard let l = try? Literals.duration(String(low.dropFirst().dropLast())),
        let h = try? Literals.duration(String(high.dropFirst().dropLast()))
      else { throw CalibrationError("--param \(text): cannot read the range as durations") }
      (lo, hi) = (l.seconds, h.seconds)
    } else if let l = Double(low), let h = Double(high) {
      unit = low.contains(".") || high.contains(".") ? .factor : .integer
      (lo, hi) = (l, h)
    } else {
      throw CalibrationError(
        "--param \(key): calibrate searches durations and numbers; \(key) takes \(low) (set it in the world)")
    }
    guard lo < hi else {
      throw CalibrationError("--param \(text): the low end must be below the high end")
    }
    return KnobRange(key: key, unit: unit, low: lo, high: hi)
  }

  /// The candidate nearest `value` that the knob can take: whole milliseconds for durations,
  /// six decimals for factors, whole numbers for integers; always inside the range.
  public func snap(_ value: Double) -> Double {
    let v = min(max(value, low), high)
    switch unit {
    case .seconds: return min(max((v * 1000).rounded() / 1000, low), high)
    case .factor: return min(max((v * 1_000_000).rounded() / 1_000_000, low), high)
    case .integer: return min(max(v.rounded(), low.rounded(.up)), high.rounded(.down))
    }
  }

  /// The value as `PolicyJSON.set` and a scenario's `policy` read it.
  public func text(_ value: Double) -> String {
    switch unit {
    case .seconds: return SimDuration(nanoseconds: Int64((value * 1e9).rounded())).formatted
    case .factor: return PolicyKnobText.factor(value)
    case .integer: return String(Int64(value))
    }
  }

  /// The value for people: a duration or a trimmed number.
  public func display(_ value: Double) -> String { text(value) }

  public var rangeText: String { "\(text(low))..\(text(high))" }
}

/// Number text shared by the outputs.
enum PolicyKnobText {
  /// A factor with up to six decimals and a fraction always shown (`2.0`, `1.4142`).
  static func factor(_ value: Double) -> String {
    let rounded = (value * 1_000_000).rounded() / 1_000_000
    if rounded == rounded.rounded() && abs(rounded) < 1e15 { return "\(Int64(rounded)).0" }
    return "\(rounded)"
  }
}
