import SimKernel
import TransferEngine

/// Power that changes at a rate (`"ratePerHour": "-10%"` on a `device.power` step), turned into
/// the whole-percent steps the engine plays.
///
/// **Why steps, and why exact.** iOS shows and reports the battery in whole percents, and the
/// behaviours that depend on the level (Low Power Mode turned on as it falls to a level the
/// scenario names; turned off by iOS as a charging battery reaches 80%) happen at whole-percent
/// levels. So a rate becomes one power step per whole percent it crosses, each at the exact
/// instant the straight line crosses it (rounded up to the nanosecond, in integer arithmetic, so
/// every platform computes the same instants). A rate holds until the next power step (which
/// may change it; `"0%"` stops it) and stops at 0% and 100%; a full swing is at most 100 steps.
enum BatteryCurve {
  /// Levels in millionths of a full battery: 1% is 10,000.
  static let full: Int64 = 1_000_000
  static let percent: Int64 = 10_000
  static let hour: UInt64 = 3_600_000_000_000
  /// The level iOS turns Low Power Mode off at while charging [A: Apple Support, "Use Low Power
  /// Mode to save battery life on your iPhone": it turns off automatically at 80% or above].
  static let lowPowerModeOffLevel: Int64 = 800_000
  /// Most steps the rates of one file may make: 100 per rate already covers a full swing.
  static let maxGeneratedSteps = 100_000

  /// The entries in time order (file order for equal times), each omitted field carrying the
  /// previous value, with the level steps of every rate between one entry and the next.
  /// - Returns: the steps and how many of them the rates made.
  static func steps(_ entries: [PowerEntry]) -> (steps: [Step<PowerState>], generated: Int) {
    let sorted = entries.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }
      .map(\.element)
    var state = PowerState()
    var level = full
    var rate: Int64 = 0
    var lowPowerModeBelow: Int64?
    var steps: [Step<PowerState>] = []
    var generated = 0
    for (index, entry) in sorted.enumerated() {
      if let battery = entry.battery { level = millionths(battery) }
      state = PowerState(
        charging: entry.charging ?? state.charging, battery: Double(level) / Double(full),
        lowPowerMode: entry.lowPowerMode ?? state.lowPowerMode)
      rate = entry.ratePerHour ?? rate
      if let below = entry.lowPowerModeBelow { lowPowerModeBelow = millionths(below) }
      steps.append(Step(at: entry.at, state))
      let end = index + 1 < sorted.count ? sorted[index + 1].at : nil
      guard rate != 0 else { continue }
      var target = firstCrossing(from: level, rate: rate)
      while target >= 0 && target <= full && generated < maxGeneratedSteps + 1 {
        let offset = time(from: level, to: target, rate: rate)
        guard let offset else { break }
        let (sum, overflow) = entry.at.nanoseconds.addingReportingOverflow(offset.nanoseconds)
        let at = SimTime(nanoseconds: sum)
        guard !overflow, end.map({ at < $0 }) ?? true else { break }
        state.battery = Double(target) / Double(full)
        if rate < 0, let below = lowPowerModeBelow, target <= below { state.lowPowerMode = true }
        if rate > 0, state.charging, target >= lowPowerModeOffLevel { state.lowPowerMode = false }
        steps.append(Step(at: at, state))
        generated += 1
        target += rate < 0 ? -percent : percent
      }
      if let end { level = self.level(from: level, rate: rate, over: end - entry.at) }
    }
    return (steps, generated)
  }

  /// A level from 0 to 1 in millionths.
  static func millionths(_ level: Double) -> Int64 {
    Int64((min(max(level, 0), 1) * Double(full)).rounded())
  }

  /// The first whole percent strictly beyond `level` in the rate's direction.
  static func firstCrossing(from level: Int64, rate: Int64) -> Int64 {
    let below = level / percent * percent
    if rate < 0 { return below == level ? level - percent : below }
    return below + percent
  }

  /// When the line from `level` reaches `target`, rounded up to the nanosecond; nil when that
  /// lies beyond what `SimDuration` holds.
  static func time(from level: Int64, to target: Int64, rate: Int64) -> SimDuration? {
    let distance = UInt64((target - level).magnitude)
    let (high, low) = distance.multipliedFullWidth(by: hour)
    let speed = rate.magnitude
    guard high < speed else { return nil }
    let (quotient, remainder) = speed.dividingFullWidth((high, low))
    let nanoseconds = quotient + (remainder > 0 ? 1 : 0)
    guard nanoseconds <= UInt64(Int64.max) else { return nil }
    return SimDuration(nanoseconds: Int64(nanoseconds))
  }

  /// The level after `duration` at `rate`, held within 0...full (truncated toward the start).
  static func level(from level: Int64, rate: Int64, over duration: SimDuration) -> Int64 {
    guard duration.nanoseconds > 0 else { return level }
    let bound = rate < 0 ? 0 : full
    let (high, low) = UInt64(duration.nanoseconds).multipliedFullWidth(by: rate.magnitude)
    guard high < hour else { return bound }
    let moved = hour.dividingFullWidth((high, low)).quotient
    guard moved < UInt64((bound - level).magnitude) else { return bound }
    return rate < 0 ? level - Int64(moved) : level + Int64(moved)
  }
}

extension ValueType where T == Int64 {
  /// `ratePerHour`: `"-10%"`, `"+25%"`, `"0%"`, `"-2.5%"`, as millionths of a full battery per
  /// hour; from -1000% to +1000% (a full swing in 6 minutes), at most four decimals.
  static var batteryRate: ValueType<Int64> {
    let expected =
      "a battery change per hour like \"-10%\" (draining) or \"+25%\" (charging), from -1000% to +1000%"
    return ValueType(expected: expected) { v, path, ctx in
      guard let text = v.string else { return nilAfter(ctx.wrongType(path, v, expected: expected)) }
      guard let rate = parseRate(text) else {
        return nilAfter(ctx.invalid(path, v, "'\(text)' is not \(expected)"))
      }
      guard rate.magnitude <= 1000 * UInt64(BatteryCurve.percent) else {
        return nilAfter(ctx.invalid(path, v, "'\(text)' is out of range; expected \(expected)"))
      }
      return rate
    }
  }

  /// Sign, digits, up to four decimals, `%`; nil for anything else.
  static func parseRate(_ text: String) -> Int64? {
    var body = Substring(text)
    guard body.hasSuffix("%") else { return nil }
    body = body.dropLast()
    var negative = false
    if let sign = body.first, sign == "-" || sign == "+" {
      negative = sign == "-"
      body = body.dropFirst()
    }
    let parts = body.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count <= 2, let whole = parts.first, !whole.isEmpty, whole.count <= 5,
      whole.allSatisfy({ $0.isASCII && $0.isNumber })
    else { return nil }
    var fraction = parts.count == 2 ? parts[1] : ""
    guard fraction.count <= 4, parts.count == 1 || !fraction.isEmpty,
      fraction.allSatisfy({ $0.isASCII && $0.isNumber })
    else { return nil }
    fraction += String(repeating: "0", count: 4 - fraction.count)
    guard let w = Int64(whole), let f = Int64(fraction) else { return nil }
    let value = w * BatteryCurve.percent + f
    return negative ? -value : value
  }
}
