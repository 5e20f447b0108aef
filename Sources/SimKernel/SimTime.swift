/// A span of simulated time: an integer count of nanoseconds, never floating point.
///
/// Durations are what the scenario format writes as `"1h30m"` or `"250ms"`; `description`
/// renders the same canonical form (see `SimDuration.formatted`).
public struct SimDuration: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The length in nanoseconds; negative only as the difference of two instants.
  public var nanoseconds: Int64

  /// A duration of `nanoseconds` nanoseconds.
  @inlinable public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

  /// No time at all.
  public static let zero = SimDuration(nanoseconds: 0)
  /// One second in nanoseconds, the unit the conversions use.
  public static let nanosecondsPerSecond: Int64 = 1_000_000_000

  /// `n` nanoseconds, the resolution of simulated time.
  @inlinable public static func nanoseconds(_ n: Int64) -> SimDuration { SimDuration(nanoseconds: n) }
  /// `n` microseconds.
  @inlinable public static func microseconds(_ n: Int64) -> SimDuration {
    SimDuration(nanoseconds: n * 1_000)
  }
  /// `n` milliseconds.
  @inlinable public static func milliseconds(_ n: Int64) -> SimDuration {
    SimDuration(nanoseconds: n * 1_000_000)
  }
  /// `n` whole seconds.
  @inlinable public static func seconds(_ n: Int64) -> SimDuration {
    SimDuration(nanoseconds: n * 1_000_000_000)
  }
  /// `n` minutes.
  @inlinable public static func minutes(_ n: Int64) -> SimDuration { .seconds(n * 60) }
  /// `n` hours.
  @inlinable public static func hours(_ n: Int64) -> SimDuration { .seconds(n * 3_600) }
  /// `n` days of 24 hours.
  @inlinable public static func days(_ n: Int64) -> SimDuration { .seconds(n * 86_400) }

  /// A duration from fractional seconds, rounded up to the next nanosecond so that a
  /// computed completion is never reported before the bytes could have arrived.
  @inlinable public static func seconds(rounding value: Double) -> SimDuration {
    let ns = (value * 1e9).rounded(.up)
    if ns >= Double(Int64.max) { return SimDuration(nanoseconds: Int64.max) }
    return SimDuration(nanoseconds: Int64(ns))
  }

  /// The duration as fractional seconds, for rate arithmetic only.
  @inlinable public var seconds: Double { Double(nanoseconds) / 1e9 }

  @inlinable public static func < (a: SimDuration, b: SimDuration) -> Bool { a.nanoseconds < b.nanoseconds }
  /// The sum of two durations.
  @inlinable public static func + (a: SimDuration, b: SimDuration) -> SimDuration {
    SimDuration(nanoseconds: a.nanoseconds &+ b.nanoseconds)
  }
  /// The difference of two durations.
  @inlinable public static func - (a: SimDuration, b: SimDuration) -> SimDuration {
    SimDuration(nanoseconds: a.nanoseconds &- b.nanoseconds)
  }
  /// The duration `k` times over, capped at the largest duration rather than overflowing.
  @inlinable public static func * (a: SimDuration, k: Int64) -> SimDuration {
    SimDuration(
      nanoseconds: a.nanoseconds.multipliedReportingOverflow(by: k).overflow
        ? Int64.max : a.nanoseconds * k)
  }

  /// Multiplies by a real factor (the rate limiter's `growth`), saturating at `Int64.max`.
  @inlinable public func scaled(by factor: Double) -> SimDuration {
    let v = (Double(nanoseconds) * factor).rounded()
    if v >= Double(Int64.max) { return SimDuration(nanoseconds: Int64.max) }
    return SimDuration(nanoseconds: Int64(v))
  }

  public var description: String { formatted }

  /// The canonical text form: `0s`, `250ms`, `1.5ms`, `30s`, `1h30m`, `2d3h0.5s`.
  ///
  /// Below one second the largest unit that keeps the value readable is used (`ms`, `us`,
  /// `ns`); from one second on the value is a sum of `d`, `h`, `m` and (fractional) `s`,
  /// skipping zero parts. Every output parses back to the same value.
  public var formatted: String {
    if nanoseconds == 0 { return "0s" }
    // The magnitude as UInt64, so Int64.min is written exactly rather than clamped.
    var n = nanoseconds.magnitude
    let sign = nanoseconds < 0 ? "-" : ""
    if n < 1_000_000_000 {
      if n % 1_000_000 == 0 { return sign + "\(n / 1_000_000)ms" }
      if n >= 1_000_000 { return sign + Self.decimal(n, unit: 1_000_000) + "ms" }
      if n % 1_000 == 0 || n >= 1_000 { return sign + Self.decimal(n, unit: 1_000) + "us" }
      return sign + "\(n)ns"
    }
    var text = sign
    let units: [(UInt64, String)] = [
      (86_400_000_000_000, "d"), (3_600_000_000_000, "h"), (60_000_000_000, "m"),
    ]
    for (size, name) in units where n >= size {
      text += "\(n / size)\(name)"
      n %= size
    }
    if n > 0 { text += Self.decimal(n, unit: 1_000_000_000) + "s" }
    return text
  }

  /// The form for people: `formatted` rounded to the millisecond from one second on and to the
  /// microsecond below, so computed completion times read `12m10.1s`, not `12m10.100000001s`.
  /// Traces keep the exact `formatted` value.
  public var readable: String {
    let magnitude = nanoseconds.magnitude
    let step: UInt64 = magnitude >= 1_000_000_000 ? 1_000_000 : magnitude >= 1_000_000 ? 1_000 : 1
    let (quotient, remainder) = magnitude.quotientAndRemainder(dividingBy: step)
    var rounded = quotient * step
    if remainder * 2 >= step && step > 1, rounded <= UInt64(Int64.max) - step { rounded += step }
    guard rounded <= UInt64(Int64.max) else { return formatted }
    let value = Int64(rounded)
    return SimDuration(nanoseconds: nanoseconds < 0 ? -value : value).formatted
  }

  /// `value / unit` written in decimal without trailing zeros, exactly (no floating point).
  static func decimal(_ value: UInt64, unit: UInt64) -> String {
    let whole = value / unit
    var frac = value % unit
    if frac == 0 { return "\(whole)" }
    var digits = ""
    var scale = unit / 10
    while frac > 0 && scale > 0 {
      digits.append(Character(String(frac / scale)))
      frac %= scale
      scale /= 10
    }
    return "\(whole).\(digits)"
  }
}

/// An instant of simulated time: nanoseconds since the scenario's start.
public struct SimTime: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Nanoseconds since the scenario's start.
  public var nanoseconds: Int64

  /// The instant `nanoseconds` after the start.
  @inlinable public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }
  /// The instant `sinceStart` after the start: `SimTime(.minutes(5))`.
  @inlinable public init(_ sinceStart: SimDuration) { self.nanoseconds = sinceStart.nanoseconds }

  /// The start of the run.
  public static let zero = SimTime(nanoseconds: 0)
  /// Later than any instant a scenario can name; used for "never".
  public static let distantFuture = SimTime(nanoseconds: Int64.max)

  /// The time from the start of the run to this instant.
  @inlinable public var sinceStart: SimDuration { SimDuration(nanoseconds: nanoseconds) }

  @inlinable public static func < (a: SimTime, b: SimTime) -> Bool { a.nanoseconds < b.nanoseconds }
  /// The instant `d` later, capped at `distantFuture` rather than overflowing.
  @inlinable public static func + (a: SimTime, d: SimDuration) -> SimTime {
    let (v, o) = a.nanoseconds.addingReportingOverflow(d.nanoseconds)
    return SimTime(nanoseconds: o ? Int64.max : v)
  }
  /// The time from `b` to `a` (negative when `a` is earlier).
  @inlinable public static func - (a: SimTime, b: SimTime) -> SimDuration {
    SimDuration(nanoseconds: a.nanoseconds &- b.nanoseconds)
  }

  public var description: String { sinceStart.formatted }
}
