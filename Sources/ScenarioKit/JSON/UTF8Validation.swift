/// Checks that bytes are well-formed UTF-8 (RFC 3629: no overlongs, no surrogates, at most
/// U+10FFFF), so the parser can work on bytes and report the offset of the first bad one.
enum UTF8Validation {
  /// The offset of the first ill-formed sequence (its first byte, where the bad character
  /// starts), or nil.
  /// - Complexity: O(n), no allocation.
  static func firstInvalidOffset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var i = 0
    let n = bytes.count
    while i < n {
      let b0 = bytes[i]
      if b0 < 0x80 {
        i += 1
        continue
      }
      let length: Int
      var lower: UInt8 = 0x80
      var upper: UInt8 = 0xBF
      switch b0 {
      case 0xC2...0xDF: length = 2
      case 0xE0:
        length = 3
        lower = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED:
        length = 3
        upper = 0x9F
      case 0xF0:
        length = 4
        lower = 0x90
      case 0xF1...0xF3: length = 4
      case 0xF4:
        length = 4
        upper = 0x8F
      default: return i
      }
      for k in 1..<length {
        guard i + k < n else { return i }  // truncated at the end of the file
        let b = bytes[i + k]
        let (lo, hi) = k == 1 ? (lower, upper) : (UInt8(0x80), UInt8(0xBF))
        if b < lo || b > hi { return i }
      }
      i += length
    }
    return nil
  }
}
