extension Unicode.Scalar {
  /// `U+00E9`: the code point as Unicode writes it, at least four hex digits, for messages that
  /// must show a character the screen hides or draws like another.
  var codePoint: String {
    let hex = String(value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
  }
}
