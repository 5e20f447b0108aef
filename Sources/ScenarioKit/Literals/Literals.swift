import SimKernel
import TransferEngine

/// Why a literal (duration, size, rate) could not be read; the message quotes it and says
/// what would be accepted.
public struct LiteralError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What was wrong with the literal and what would be accepted.
  public var message: String
  /// An error whose description is `message`.
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}

/// The scenario format's literals: durations, instants, sizes and rates (scenario-format.md,
/// Literals). Every value is read exactly from its digits; none goes through floating point
/// except rates, which the engine keeps as `Double` bits per second.
public enum Literals {
  /// Duration units and their length in nanoseconds.
  static let durationUnits: [(String, Int64)] = [
    ("ns", 1), ("us", 1_000), ("ms", 1_000_000), ("s", 1_000_000_000), ("m", 60_000_000_000),
    ("h", 3_600_000_000_000), ("d", 86_400_000_000_000),
  ]
  /// Size units and their bytes: SI powers of 1000 and IEC powers of 1024.
  static let sizeUnits: [(String, Int64)] = [
    ("B", 1), ("KB", 1_000), ("MB", 1_000_000), ("GB", 1_000_000_000), ("KiB", 1 << 10), ("MiB", 1 << 20),
    ("GiB", 1 << 30),
  ]
  /// Rate units and their bits per second.
  static let rateUnits: [(String, Int64)] = [
    ("bps", 1), ("kbps", 1_000), ("Mbps", 1_000_000), ("Gbps", 1_000_000_000), ("B/s", 8), ("KB/s", 8_000),
    ("MB/s", 8_000_000), ("GB/s", 8_000_000_000), ("KiB/s", 8 << 10), ("MiB/s", 8 << 20), ("GiB/s", 8 << 30),
  ]

  /// The longest duration or instant a scenario may write: 3650 days (about 10 years). The
  /// engine adds durations to instants (a timeout after a retry after a delay); keeping each
  /// below 1/25 of `Int64.max` nanoseconds leaves room for those sums.
  public static let maxDuration = SimDuration.days(3650)
  /// The largest size: 1 TiB (2^40 bytes). A million tasks of that size still sum below
  /// `Int64.max`, and tenths of a size (progress) cannot overflow.
  public static let maxSize: Int64 = 1 << 40
  /// The fastest rate: 1 Tbps (10^12 bits per second).
  public static let maxBitsPerSecond: Double = 1e12

  /// What a duration looks like, for "expected ..." messages.
  public static let durationExample = "a duration like \"30s\", \"250ms\" or \"1h30m\""
  /// What a size looks like, for "expected ..." messages.
  public static let sizeExample = "a size like 1024 (bytes), \"50MB\" or \"1.5GiB\""
  /// What a rate looks like, for "expected ..." messages.
  public static let rateExample = "a rate like \"20Mbps\", \"500kbps\" or \"2MB/s\""

  /// `"1h30m"`, `"2m0.5s"`, `"250ms"`: a sum of `<number><unit>` parts, units ns us ms s m h d.
  public static func duration(_ text: String) throws(LiteralError) -> SimDuration {
    if text.hasPrefix("-") {
      throw LiteralError("negative duration \"\(text)\"; a duration must be 0 or more")
    }
    let parts = try quantities(text, what: "duration", units: durationUnits, example: "\"30s\"")
    guard !parts.isEmpty else { throw LiteralError("expected \(durationExample), found an empty string") }
    var total: Int64 = 0
    for (number, unit, factor) in parts {
      switch number.times(factor) {
      case .success(let ns):
        let (sum, overflow) = total.addingReportingOverflow(ns)
        if overflow { throw tooLarge("duration", text) }
        total = sum
      case .failure(.tooLarge): throw tooLarge("duration", text)
      case .failure(.notWhole):
        throw LiteralError("duration \"\(text)\" is finer than a nanosecond (in the '\(unit)' part)")
      }
    }
    return try withinLimit(SimDuration(nanoseconds: total), text)
  }

  private static func withinLimit(_ d: SimDuration, _ text: String) throws(LiteralError) -> SimDuration {
    guard d <= maxDuration else {
      throw tooLarge("duration", text)
    }
    return d
  }

  /// A bare JSON number in a duration's place: seconds, read exactly (`0.1` is 100 ms).
  public static func duration(seconds number: JSONNumber) throws(LiteralError) -> SimDuration {
    if number.text.hasPrefix("-") {
      throw LiteralError("negative duration \(number.text); a duration must be 0 or more")
    }
    guard let decimal = ExactDecimal(Substring(number.text)) else { throw tooLarge("duration", number.text) }
    switch decimal.times(SimDuration.nanosecondsPerSecond) {
    case .success(let ns): return try withinLimit(SimDuration(nanoseconds: ns), number.text)
    case .failure(.tooLarge): throw tooLarge("duration", number.text)
    case .failure(.notWhole): throw LiteralError("duration \(number.text) s is finer than a nanosecond")
    }
  }

  /// An instant: a duration since the scenario's start, or with `allowRelative`, `"+30s"`
  /// meaning 30 s after the action that names it.
  public static func instant(_ text: String, allowRelative: Bool) throws(LiteralError) -> InstantSpec {
    guard text.hasPrefix("+") else { return .absolute(SimTime(try duration(text))) }
    guard allowRelative else {
      throw LiteralError(
        "relative instant \"\(text)\" is not allowed here; write a time since the scenario's start "
          + "such as \"\(text.dropFirst())\" (only earliestBegin accepts \"+...\")")
    }
    return .relative(try duration(String(text.dropFirst())))
  }

  /// `"50MB"`, `"1.5MiB"`, `"512B"`: bytes, with powers of 1000 (KB MB GB) or 1024 (KiB MiB GiB).
  public static func size(_ text: String) throws(LiteralError) -> Int64 {
    if text.hasPrefix("-") { throw LiteralError("negative size \"\(text)\"; a size must be 0 or more") }
    let parts = try quantities(text, what: "size", units: sizeUnits, example: "\"50MB\"")
    guard parts.count == 1, let (number, _, factor) = parts.first else {
      throw LiteralError("expected \(sizeExample), found \"\(text)\"")
    }
    switch number.times(factor) {
    case .success(let bytes) where bytes <= maxSize: return bytes
    case .success, .failure(.tooLarge): throw sizeTooLarge("\"\(text)\"")
    case .failure(.notWhole): throw LiteralError("size \"\(text)\" is not a whole number of bytes")
    }
  }

  /// `"20Mbps"`, `"500kbps"`, `"800bps"` (bits per second) or `"2MB/s"`, `"1KiB/s"` (bytes per second).
  public static func rate(_ text: String) throws(LiteralError) -> DataRate {
    if text.hasPrefix("-") { throw LiteralError("negative rate \"\(text)\"; a rate must be 0 or more") }
    let parts = try quantities(text, what: "rate", units: rateUnits, example: "\"20Mbps\"")
    guard parts.count == 1, let (number, _, factor) = parts.first else {
      throw LiteralError("expected \(rateExample), found \"\(text)\"")
    }
    let bits = number.double(times: factor)
    guard bits.isFinite && bits <= maxBitsPerSecond else {
      throw LiteralError("rate \"\(text)\" is too large; rates are at most 1000Gbps")
    }
    return DataRate(bitsPerSecond: bits)
  }

  /// `size "2TiB" is too large; ...`: also used for sizes written as JSON integers.
  static func sizeTooLarge(_ text: String) -> LiteralError {
    LiteralError("size \(text) is too large; sizes are at most 1024GiB (1099511627776 bytes)")
  }

  private static func tooLarge(_ what: String, _ text: String) -> LiteralError {
    LiteralError("\(what) \"\(text)\" is too large; durations are at most 3650d (about 10 years)")
  }

  /// Splits `"1h30m"` into `(1, h)`, `(30, m)`, checking each number and unit. Split on
  /// UTF-8 bytes (walking characters cost several times more): a number is ASCII digits and
  /// dots, a unit everything up to the next of them.
  private static func quantities(
    _ text: String, what: String, units: [(String, Int64)], example: String
  ) throws(LiteralError) -> [(ExactDecimal, String, Int64)] {
    let bytes = text.utf8
    let isASCII = bytes.allSatisfy { $0 < 0x80 }
    // ASCII's spaces are tab to carriage return and space; beyond ASCII, Unicode's.
    if isASCII
      ? bytes.contains(where: { $0 == 0x20 || (0x09...0x0D).contains($0) })
      : text.contains(where: \.isWhitespace)
    {
      throw LiteralError("\(what) \"\(text)\" contains spaces; write it without them, like \(example)")
    }
    func isNumberByte(_ b: UInt8) -> Bool {
      (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: ".")
    }
    func unitList() -> String { units.map(\.0).joined(separator: ", ") }
    var parts: [(ExactDecimal, String, Int64)] = []
    var start = bytes.startIndex
    while start < bytes.endIndex {
      let unitStart = bytes[start...].firstIndex { !isNumberByte($0) } ?? bytes.endIndex
      let unitEnd = bytes[unitStart...].firstIndex(where: isNumberByte) ?? bytes.endIndex
      let numberText = text[start..<unitStart]
      let unit = text[unitStart..<unitEnd]
      start = unitEnd
      guard !numberText.isEmpty else {
        throw LiteralError(
          "expected a number before '\(unit)' in \(what) \"\(text)\"; write it like \(example)")
      }
      guard let number = ExactDecimal(numberText) else {
        throw LiteralError("'\(numberText)' in \(what) \"\(text)\" is not a number")
      }
      guard !unit.isEmpty else {
        let bare = what == "duration" ? " (a bare JSON number, without quotes, means seconds)" : ""
        throw LiteralError(
          "missing unit after '\(numberText)' in \(what) \"\(text)\"; units are \(unitList())\(bare)")
      }
      guard let factor = units.first(where: { $0.0 == unit })?.1 else {
        // Only a difference of case is suggested: a unit one letter off ('TB' for 'GB') is
        // another magnitude, not a typo.
        let sameLetters = units.first { $0.0.lowercased() == unit.lowercased() }?.0
        let hint = sameLetters.map { "did you mean '\($0)'? " } ?? ""
        throw LiteralError("unknown unit '\(unit)' in \(what) \"\(text)\"; \(hint)units are \(unitList())")
      }
      parts.append((number, String(unit), factor))
    }
    return parts
  }
}
