import SafeOutput
import SimKernel

/// A strict RFC 8259 JSON parser that keeps positions, key order, and integer/float distinction.
///
/// It never recurses: open arrays and objects live on an explicit stack bounded by `maxDepth`,
/// so a file of 100,000 nested brackets gets a clear error instead of a stack overflow.
public struct JSONParser {
  /// Deepest nesting accepted; scenarios need fewer than ten levels.
  public static let defaultMaxDepth = 128

  /// Parses a whole document: one value, optional whitespace around it, nothing else.
  /// A UTF-8 byte order mark at the start is skipped. `allowsDuplicateKeys` keeps every member
  /// of an object in order even when a key repeats (trace lines of format version 1 repeat
  /// `kind`: the envelope's, then a field's); scenario files always reject them.
  /// - Complexity: O(n) in the number of bytes.
  public static func parse(
    _ bytes: [UInt8], maxDepth: Int = defaultMaxDepth, allowsDuplicateKeys: Bool = false
  ) throws(JSONParseError) -> JSONValue {
    let invalid = bytes.withUnsafeBufferPointer { UTF8Validation.firstInvalidOffset($0) }
    if let offset = invalid { throw JSONParseError(.invalidUTF8(byte: bytes[offset], offset: offset)) }
    var parser = JSONParser(bytes: bytes, maxDepth: maxDepth)
    parser.allowsDuplicateKeys = allowsDuplicateKeys
    return try parser.parseDocument()
  }

  /// An array or object that is open while its elements are parsed. Mutated in place on the
  /// stack (never copied out and back) so that appending stays O(1).
  private struct Frame {
    var start: JSONPosition
    var isObject: Bool
    var items: [JSONValue] = []
    var members: [JSONMember] = []
    /// The keys of `members` (the first `keysInSet` of them), by their exact UTF-8 bytes, once
    /// the object has more than `scannedMembers`: RFC 8259 compares keys by code points, so NFC
    /// and NFD spellings of one word are two different keys (Swift's `==` would merge them).
    var keys: Set<[UInt8]> = []
    var keysInSet = 0
    var key = ""
    var keyPosition = JSONPosition(line: 0, column: 0)

    /// Up to this many members, a new key is compared with each (a set costs more for the
    /// handful of keys most objects have); beyond, it is looked up.
    static let scannedMembers = 16

    /// Whether no member of the object has `key` yet.
    mutating func isNewKey(_ key: String) -> Bool {
      if members.count <= Self.scannedMembers { return !members.contains { $0.key.hasSameUTF8(key) } }
      while keysInSet < members.count {
        keys.insert(Array(members[keysInSet].key.utf8))
        keysInSet += 1
      }
      return !keys.contains(Array(key.utf8))
    }
  }

  let bytes: [UInt8]
  let maxDepth: Int
  var allowsDuplicateKeys = false
  var index = 0
  var line = 1
  var column = 1

  private init(bytes: [UInt8], maxDepth: Int) {
    self.bytes = bytes
    self.maxDepth = maxDepth
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
  }

  var position: JSONPosition { JSONPosition(line: line, column: column) }
  var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

  mutating func advance() {
    let b = bytes[index]
    index += 1
    if b == UInt8(ascii: "\n") {
      line += 1
      column = 1
    } else if b & 0xC0 != 0x80 {
      column += 1
    }
  }

  private mutating func skipWhitespace() {
    while let b = peek, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { advance() }
  }

  func fail(_ message: String) -> JSONParseError {
    JSONParseError(.syntax(message, position))
  }

  /// What the parser found instead of what it expected, for messages: the character itself,
  /// with its code point when it is not ASCII, so an invisible one can be found in the file.
  var found: String {
    guard index < bytes.count else { return "end of file" }
    let b = bytes[index]
    if b >= 0x21 && b < 0x7F { return "'\(Character(UnicodeScalar(b)))'" }
    if b == 0x20 { return "a space" }
    if b < 0x80 { return "the control character \(Unicode.Scalar(b).codePoint)" }
    // The character whose UTF-8 sequence starts here.
    var rest = bytes[index...].makeIterator()
    var decoder = UTF8()
    guard case .scalarValue(let scalar) = decoder.decode(&rest) else {
      return "the byte 0x\(String(b, radix: 16, uppercase: true)), which is not UTF-8"
    }
    return "'\(Character(scalar))' (\(scalar.codePoint))"
  }

  private mutating func parseDocument() throws(JSONParseError) -> JSONValue {
    skipWhitespace()
    if index >= bytes.count { throw JSONParseError(.empty) }
    var stack: [Frame] = []
    while true {
      // Parse one value, or open a container and go round again for its first element.
      skipWhitespace()
      let start = position
      var value: JSONValue
      switch peek ?? 0 {
      case UInt8(ascii: "{"):
        if stack.count >= maxDepth { throw JSONParseError(.tooDeep(limit: maxDepth, start)) }
        advance()
        skipWhitespace()
        if peek == UInt8(ascii: "}") {
          advance()
          value = JSONValue(.object([]), at: start)
        } else {
          let (key, keyPosition) = try parseKey(afterComma: false)
          stack.append(
            Frame(start: start, isObject: true, key: key, keyPosition: keyPosition))
          continue
        }
      case UInt8(ascii: "["):
        if stack.count >= maxDepth { throw JSONParseError(.tooDeep(limit: maxDepth, start)) }
        advance()
        skipWhitespace()
        if peek == UInt8(ascii: "]") {
          advance()
          value = JSONValue(.array([]), at: start)
        } else {
          stack.append(Frame(start: start, isObject: false))
          continue
        }
      case UInt8(ascii: "\""): value = JSONValue(.string(try parseString()), at: start)
      case UInt8(ascii: "t"): value = JSONValue(.bool(true), at: try parseWord("true", start))
      case UInt8(ascii: "f"): value = JSONValue(.bool(false), at: try parseWord("false", start))
      case UInt8(ascii: "n"): value = JSONValue(.null, at: try parseWord("null", start))
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        value = JSONValue(.number(try parseNumber()), at: start)
      default:
        throw fail("expected a value, found \(found)")
      }
      // Attach the value to the open containers, closing those that end here.
      while true {
        guard !stack.isEmpty else {
          skipWhitespace()
          if index < bytes.count {
            throw fail("expected nothing after the JSON value, found \(found)")
          }
          return value
        }
        let top = stack.count - 1
        skipWhitespace()
        if !stack[top].isObject {
          stack[top].items.append(value)
          if peek == UInt8(ascii: ",") {
            advance()
            skipWhitespace()
            if peek == UInt8(ascii: "]") {
              throw fail("expected a value after ',' (JSON allows no trailing comma)")
            }
            break
          }
          guard peek == UInt8(ascii: "]") else {
            throw fail("expected ',' or ']' after array element, found \(found)")
          }
          advance()
          let frame = stack.removeLast()
          value = JSONValue(.array(frame.items), at: frame.start)
        } else {
          stack[top].members.append(
            JSONMember(key: stack[top].key, keyPosition: stack[top].keyPosition, value: value))
          if peek == UInt8(ascii: ",") {
            advance()
            let (next, nextPosition) = try parseKey(afterComma: true)
            if !allowsDuplicateKeys && !stack[top].isNewKey(next) {
              throw JSONParseError(.syntax("duplicate key \"\(TerminalText.shortened(next))\"", nextPosition))
            }
            stack[top].key = next
            stack[top].keyPosition = nextPosition
            break
          }
          guard peek == UInt8(ascii: "}") else {
            throw fail("expected ',' or '}' after object member, found \(found)")
          }
          advance()
          let frame = stack.removeLast()
          value = JSONValue(.object(frame.members), at: frame.start)
        }
      }
    }
  }

  /// Reads `"key"` and the `:` after it, leaving the parser at the member's value.
  private mutating func parseKey(afterComma: Bool) throws(JSONParseError) -> (String, JSONPosition) {
    skipWhitespace()
    guard peek == UInt8(ascii: "\"") else {
      if afterComma && peek == UInt8(ascii: "}") {
        throw fail("expected a key after ',' (JSON allows no trailing comma)")
      }
      throw fail("expected a string key in double quotes, found \(found)")
    }
    let keyPosition = position
    let key = try parseString()
    skipWhitespace()
    guard peek == UInt8(ascii: ":") else {
      throw fail("expected ':' after object key \"\(key)\", found \(found)")
    }
    advance()
    return (key, keyPosition)
  }

  private mutating func parseWord(_ word: String, _ start: JSONPosition) throws(JSONParseError)
    -> JSONPosition
  {
    for expected in word.utf8 {
      guard peek == expected else {
        throw JSONParseError(.syntax("expected a value, found an unknown word", start))
      }
      advance()
    }
    if let b = peek, isWordByte(b) {
      throw JSONParseError(.syntax("expected a value, found an unknown word", start))
    }
    return start
  }

  private func isWordByte(_ b: UInt8) -> Bool {
    (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
      || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "_")
  }
}
