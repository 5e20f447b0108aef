import SimKernel

/// `startsAt` and times of day: a scenario that starts at a date and time lets instants be
/// written as a time of day (`"22:00"`), the first such time at or after the start, so an
/// overnight story reads as one.
enum TimeOfDay {
  /// The seconds since midnight of `"HH:MM"` or `"HH:MM:SS"`; nil when the text has another shape,
  /// so that durations such as `"20m"` are read as before.
  static func seconds(_ text: String) -> Int64?? {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    let digits = { (part: Substring) in part.allSatisfy { $0.isASCII && $0.isNumber } }
    guard parts.count == 2 || parts.count == 3, (1...2).contains(parts[0].count),
      parts.dropFirst().allSatisfy({ $0.count == 2 }), parts.allSatisfy(digits)
    else { return nil }
    let numbers = parts.compactMap { Int64($0) }
    // The shape of a time of day, but not a real one (25:00, 10:61): an error, not a duration.
    guard numbers[0] < 24, numbers[1] < 60, numbers.count == 2 || numbers[2] < 60 else { return .some(nil) }
    return numbers[0] * 3_600 + numbers[1] * 60 + (numbers.count == 3 ? numbers[2] : 0)
  }

  /// Why `text` is not a time of day when it starts like one (digits, then `:`) but has another
  /// shape (`"06:00:00.5"`, `"6:0"`, `"06:00:"`); nil for any other text, which is then read as a
  /// duration. Without this, the duration reader would answer "unknown unit ':'".
  static func malformed(_ text: String) -> String? {
    let lead = text.prefix { $0.isASCII && $0.isNumber }
    guard !lead.isEmpty, text.dropFirst(lead.count).first == ":", seconds(text) == nil else { return nil }
    let fraction = text.containsBytes(of: ".") ? " (seconds are whole: no fraction)" : ""
    return "'\(text)' is not a time of day: write \"HH:MM\" or \"HH:MM:SS\"\(fraction), such as \"06:00\" "
      + "or \"06:00:30\", or a duration since the start such as \"6h0.5s\""
  }

  /// The time of day, in seconds since midnight, of `"YYYY-MM-DDTHH:MM"` or `"...:SS"`; nil when
  /// the text is not such a date and time (a real one: no 30 February).
  static func start(_ text: String) -> Int64? {
    let halves = text.split(separator: "T", omittingEmptySubsequences: false)
    guard halves.count == 2 else { return nil }
    let date = halves[0].split(separator: "-", omittingEmptySubsequences: false)
    guard date.count == 3, date[0].count == 4, date[1].count == 2, date[2].count == 2,
      let year = Int(date[0]), let month = Int(date[1]), let day = Int(date[2]),
      date.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }), (1...12).contains(month)
    else { return nil }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    guard (1...days).contains(day), halves[1].split(separator: ":").allSatisfy({ $0.count == 2 }),
      case .some(.some(let seconds)) = Self.seconds(String(halves[1]))
    else { return nil }
    return seconds
  }

  /// Seconds since 1970-01-01T00:00:00Z of a date and time `start(_:)` accepts, read as UTC.
  static func epochSeconds(_ text: String) -> Int64? {
    guard let timeOfDay = start(text) else { return nil }
    let date = text.prefix { $0 != "T" }.split(separator: "-").compactMap { Int64($0) }
    guard date.count == 3 else { return nil }
    return daysSinceEpoch(year: date[0], month: date[1], day: date[2]) * 86_400 + timeOfDay
  }

  /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
  static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The instant of the first `timeOfDay` at or after a start at `startOfDay` (both seconds since midnight).
  static func instant(_ timeOfDay: Int64, after startOfDay: Int64) -> SimTime {
    let day: Int64 = 86_400
    return SimTime(.seconds(((timeOfDay - startOfDay) % day + day) % day))
  }
}

extension ValueType where T == String {
  /// `startsAt`: a local date and time, `"2026-03-01T21:00:00"` (seconds optional).
  static var startsAt: ValueType<String> {
    let expected = "a local date and time like \"2026-03-01T21:00:00\""
    return ValueType(expected: expected) { v, path, ctx in
      guard let s = v.string else { return nilAfter(ctx.wrongType(path, v, expected: expected)) }
      guard TimeOfDay.start(s) != nil else {
        return nilAfter(ctx.invalid(path, v, "'\(s)' is not a date and time; expected \(expected)"))
      }
      return s
    }
  }
}
