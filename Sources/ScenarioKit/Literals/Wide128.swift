/// A non-negative integer below 2^127, as two 64-bit halves: what `ExactDecimal` needs of a
/// 128-bit integer. The standard library's `Int128` needs macOS 15 / iOS 18, newer than the
/// platforms the package supports.
struct Wide128: Hashable, Sendable {
  var high: UInt64
  var low: UInt64

  static let zero = Wide128(high: 0, low: 0)

  init(high: UInt64, low: UInt64) {
    self.high = high
    self.low = low
  }

  init(_ value: UInt64) { self.init(high: 0, low: value) }

  var isZero: Bool { high == 0 && low == 0 }

  /// `self * factor`, with overflow meaning the result reaches 2^127 (the range of `Int128`).
  func multipliedReportingOverflow(by factor: UInt64) -> (partialValue: Wide128, overflow: Bool) {
    let lowProduct = low.multipliedFullWidth(by: factor)
    let highProduct = high.multipliedFullWidth(by: factor)
    let (newHigh, carry) = highProduct.low.addingReportingOverflow(lowProduct.high)
    let overflow = highProduct.high != 0 || carry || newHigh >= 1 << 63
    return (Wide128(high: newHigh, low: lowProduct.low), overflow)
  }

  /// `self + value`, with overflow meaning the result reaches 2^127.
  func addingReportingOverflow(_ value: UInt64) -> (partialValue: Wide128, overflow: Bool) {
    let (newLow, carry) = low.addingReportingOverflow(value)
    let (newHigh, highCarry) = high.addingReportingOverflow(carry ? 1 : 0)
    return (Wide128(high: newHigh, low: newLow), highCarry || newHigh >= 1 << 63)
  }

  /// The quotient and remainder of division by a non-zero `divisor`.
  func quotientAndRemainder(dividingBy divisor: UInt64) -> (quotient: Wide128, remainder: UInt64) {
    let (highQuotient, highRemainder) = high.quotientAndRemainder(dividingBy: divisor)
    let (lowQuotient, remainder) = divisor.dividingFullWidth((high: highRemainder, low: low))
    return (Wide128(high: highQuotient, low: lowQuotient), remainder)
  }

  /// The value when it fits in `Int64`.
  var int64: Int64? { high == 0 && low <= UInt64(Int64.max) ? Int64(low) : nil }

  /// The nearest `Double` (exact below 2^53).
  var double: Double { high == 0 ? Double(low) : Double(high) * 18_446_744_073_709_551_616.0 + Double(low) }
}
