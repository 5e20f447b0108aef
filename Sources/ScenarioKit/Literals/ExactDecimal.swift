/// A non-negative decimal number read digit by digit, so `0.1` is exactly one tenth.
///
/// The scenario format promises integer nanoseconds and exact byte counts; going through
/// `Double` would turn `"0.3s"` into 299,999,999 ns. Arithmetic is done in 128 bits (`Wide128`).
struct ExactDecimal: Hashable, Sendable {
  /// The digits as an integer: `12.5` has mantissa 125.
  var mantissa: Wide128
  /// Powers of ten to divide by: `12.5` has scale 1; `1e3` has scale -3.
  var scale: Int

  /// The most significant digits kept exactly; more is refused rather than rounded.
  static let maxDigits = 36

  /// Reads `digits[.digits][(e|E)[+-]digits]`; nil when the text is not of that shape
  /// or has too many digits. No sign: callers handle `-` so they can name the problem.
  /// Read as UTF-8 bytes (a character's walk costs several times more): any byte outside
  /// ASCII ends the number where it is, and is then refused, as a character outside ASCII was.
  init?(_ text: Substring) {
    var mantissa = Wide128.zero
    var digits = 0
    var fraction = 0
    var seenDigit = false
    let bytes = text.utf8
    var i = bytes.startIndex
    var inFraction = false
    var last: UInt8 = 0
    while i < bytes.endIndex {
      let c = bytes[i]
      if c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") {
        let d = c - UInt8(ascii: "0")
        seenDigit = true
        if !mantissa.isZero || d != 0 { digits += 1 }
        if digits > ExactDecimal.maxDigits { return nil }
        // At most 36 digits: below 10^36 < 2^127, so neither step can overflow.
        mantissa =
          mantissa.multipliedReportingOverflow(by: 10).partialValue.addingReportingOverflow(UInt64(d))
          .partialValue
        if inFraction { fraction += 1 }
      } else if c == UInt8(ascii: ".") && !inFraction {
        inFraction = true
      } else {
        break
      }
      last = c
      i = bytes.index(after: i)
    }
    guard seenDigit, last != UInt8(ascii: ".") else { return nil }
    var exponent = 0
    if i < bytes.endIndex {
      guard bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") else { return nil }
      i = bytes.index(after: i)
      var negative = false
      if i < bytes.endIndex && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) {
        negative = bytes[i] == UInt8(ascii: "-")
        i = bytes.index(after: i)
      }
      let rest = bytes[i...]
      guard !rest.isEmpty, rest.count <= 4,
        rest.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
      else {
        return nil
      }
      exponent = rest.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
      exponent = negative ? -exponent : exponent
    }
    self.mantissa = mantissa
    self.scale = fraction - exponent
  }

  /// `self * factor` as an integer, or nil when it is not a whole number or does not fit `Int64`.
  func times(_ factor: Int64) -> Result<Int64, Failure> {
    guard factor >= 0 else { return .failure(.tooLarge) }
    var value = mantissa
    let (product, overflow) = value.multipliedReportingOverflow(by: UInt64(factor))
    if overflow { return .failure(.tooLarge) }
    value = product
    if scale < 0 {
      for _ in 0..<(-scale) where !value.isZero {
        let (v, o) = value.multipliedReportingOverflow(by: 10)
        if o { return .failure(.tooLarge) }
        value = v
      }
    } else if scale > 0 {
      for _ in 0..<scale {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: 10)
        if remainder != 0 { return .failure(.notWhole) }
        value = quotient
      }
    }
    guard let result = value.int64 else { return .failure(.tooLarge) }
    return .success(result)
  }

  /// `self * factor` as the nearest `Double` (for rates, which the engine keeps as `Double`).
  func double(times factor: Int64) -> Double {
    var value = mantissa.double * Double(factor)
    if scale > 0 {
      for _ in 0..<scale { value /= 10 }
    } else {
      for _ in 0..<(-scale) { value *= 10 }
    }
    return value
  }

  enum Failure: Error {
    case tooLarge, notWhole
  }
}
