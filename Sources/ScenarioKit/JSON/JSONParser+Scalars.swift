extension JSONParser {
  /// Reads a string literal, starting at its opening quote, decoding every escape.
  mutating func parseString() throws(JSONParseError) -> String {
    advance()  // the opening quote
    // Most strings hold no escape and no control character: their bytes are taken at once.
    var end = index
    while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"),
      bytes[end] >= 0x20
    {
      end += 1
    }
    let plain = bytes[index..<end]
    // Columns count scalars: one for each byte that does not continue a scalar.
    for b in plain where b & 0xC0 != 0x80 { column += 1 }
    index = end
    if end < bytes.count && bytes[end] == UInt8(ascii: "\"") {
      advance()
      return String(decoding: plain, as: UTF8.self)
    }
    var out = Array(plain)
    while true {
      guard let b = peek else { throw fail("unterminated string: expected '\"' before the end of file") }
      switch b {
      case UInt8(ascii: "\""):
        advance()
        return String(decoding: out, as: UTF8.self)
      case UInt8(ascii: "\\"):
        advance()
        try parseEscape(into: &out)
      case 0x00..<0x20:
        if b == UInt8(ascii: "\n") {
          throw fail("unterminated string: expected '\"' before the end of the line")
        }
        throw fail("control character in string; write it as an escape such as \\t or \\u0001")
      default:
        out.append(b)
        advance()
      }
    }
  }

  private mutating func parseEscape(into out: inout [UInt8]) throws(JSONParseError) {
    guard let e = peek else { throw fail("unterminated string: expected '\"' before the end of file") }
    let simple: [UInt8: UInt8] = [
      UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F, UInt8(ascii: "b"): 0x08,
      UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
    ]
    if let byte = simple[e] {
      advance()
      out.append(byte)
      return
    }
    guard e == UInt8(ascii: "u") else {
      throw fail(
        "invalid escape '\\\(Character(UnicodeScalar(e)))' in string; valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX"
      )
    }
    advance()
    var code = try parseHex4()
    if (0xD800...0xDBFF).contains(code) {
      guard peek == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
        throw fail("unpaired surrogate \\u\(String(code, radix: 16, uppercase: true)) in string")
      }
      advance()
      advance()
      let low = try parseHex4()
      guard (0xDC00...0xDFFF).contains(low) else {
        throw fail("unpaired surrogate \\u\(String(code, radix: 16, uppercase: true)) in string")
      }
      code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
    } else if (0xDC00...0xDFFF).contains(code) {
      throw fail("unpaired surrogate \\u\(String(code, radix: 16, uppercase: true)) in string")
    }
    out.append(contentsOf: Array(String(UnicodeScalar(code)!).utf8))
  }

  private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let b = peek else { throw fail("expected 4 hex digits after \\u") }
      let digit: UInt8
      switch b {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
      default: throw fail("expected 4 hex digits after \\u")
      }
      value = value * 16 + UInt32(digit)
      advance()
    }
    return value
  }

  /// Reads a number with RFC 8259's grammar exactly: `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`.
  mutating func parseNumber() throws(JSONParseError) -> JSONNumber {
    let start = index
    var isInteger = true
    if peek == UInt8(ascii: "-") { advance() }
    guard let first = peek, isDigit(first) else { throw fail("expected a digit after '-'") }
    advance()
    if first == UInt8(ascii: "0"), let b = peek, isDigit(b) {
      throw fail("numbers cannot have leading zeros")
    }
    skipDigits()
    if peek == UInt8(ascii: ".") {
      isInteger = false
      advance()
      guard let b = peek, isDigit(b) else { throw fail("expected a digit after '.' in number") }
      skipDigits()
    }
    if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
      isInteger = false
      advance()
      if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { advance() }
      guard let b = peek, isDigit(b) else { throw fail("expected a digit in the exponent of a number") }
      skipDigits()
    }
    if let b = peek, isLetter(b) {
      throw fail("found \(found) right after a number; units go inside a string, as in \"30s\"")
    }
    return JSONNumber(text: String(decoding: bytes[start..<index], as: UTF8.self), isInteger: isInteger)
  }

  private func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
  private func isLetter(_ b: UInt8) -> Bool {
    (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
  }
  private mutating func skipDigits() {
    while let b = peek, isDigit(b) { advance() }
  }
}
