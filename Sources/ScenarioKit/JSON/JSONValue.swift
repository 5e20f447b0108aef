import SimKernel

/// A place in a JSON text: 1-based line and column (columns count Unicode scalars).
public struct JSONPosition: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The line, from 1.
  public var line: Int
  /// The column, from 1, in Unicode scalars.
  public var column: Int

  /// The position at `line` and `column`.
  public init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  public static func < (a: JSONPosition, b: JSONPosition) -> Bool {
    (a.line, a.column) < (b.line, b.column)
  }

  /// `line 4, column 12`, the form every message uses.
  public var description: String { "line \(line), column \(column)" }
}

/// A JSON number as written, so integers stay exact and decimals can be read without rounding.
///
/// Keeping the text (rather than a `Double`) is what lets `"duration": 0.1` mean exactly
/// 100 ms: the literal parsers read the digits themselves.
public struct JSONNumber: Hashable, Sendable, CustomStringConvertible {
  /// The number exactly as written in the file (`-12`, `0.5`, `1e3`).
  public var text: String
  /// True when written without a fraction or exponent.
  public var isInteger: Bool

  /// A number written as `text`.
  public init(text: String, isInteger: Bool) {
    self.text = text
    self.isInteger = isInteger
  }

  /// The value when it is an integer that fits in `Int64`.
  public var int64: Int64? { isInteger ? Int64(text) : nil }
  /// The nearest `Double` (for knobs that are real factors, such as `growth`).
  public var double: Double { Double(text) ?? .nan }
  public var description: String { text }
}

/// One `"key": value` of an object, in file order, with where the key was written.
public struct JSONMember: Sendable {
  /// The key, unescaped.
  public var key: String
  /// Where the key was written, for messages about it.
  public var keyPosition: JSONPosition
  /// The value after the colon, with its own position.
  public var value: JSONValue

  /// A member `key` with `value`.
  public init(key: String, keyPosition: JSONPosition, value: JSONValue) {
    self.key = key
    self.keyPosition = keyPosition
    self.value = value
  }
}

/// A parsed JSON value that remembers where it was written and keeps object keys in file order.
///
/// Written here instead of using Foundation's decoders because scenario messages need the
/// position of every value, integers distinct from floats, and duplicate keys rejected.
public struct JSONValue: Sendable {
  /// The value itself, by JSON type.
  public enum Content: Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, kept as written.
    case number(JSONNumber)
    /// A string, unescaped.
    case string(String)
    /// An array, in order.
    case array([JSONValue])
    /// An object, its members in file order.
    case object([JSONMember])
  }

  /// What the value is: null, a Boolean, a number, a string, an array or an object.
  public var content: Content
  /// Where the value starts.
  public var position: JSONPosition

  /// A value with `content`, written at `position`.
  public init(_ content: Content, at position: JSONPosition) {
    self.content = content
    self.position = position
  }

  /// The string, if the value is one.
  public var string: String? {
    if case .string(let s) = content { return s }
    return nil
  }
  /// The Boolean, if the value is one.
  public var bool: Bool? {
    if case .bool(let b) = content { return b }
    return nil
  }
  /// The number, if the value is one.
  public var number: JSONNumber? {
    if case .number(let n) = content { return n }
    return nil
  }
  /// The elements, if the value is an array.
  public var array: [JSONValue]? {
    if case .array(let a) = content { return a }
    return nil
  }
  /// The members in file order, if the value is an object.
  public var members: [JSONMember]? {
    if case .object(let m) = content { return m }
    return nil
  }
  /// Whether the value is `null`.
  public var isNull: Bool {
    if case .null = content { return true }
    return false
  }

  /// The member named `key` of an object (keys are unique: the parser rejects duplicates).
  public subscript(key: String) -> JSONValue? {
    members?.first { $0.key.hasSameUTF8(key) }?.value
  }

  /// How messages describe a value that has the wrong type: `the number 50`, `an object`.
  public var summary: String {
    switch content {
    case .null: return "null"
    case .bool(let b): return b ? "true" : "false"
    case .number(let n): return "the number \(n.text)"
    case .string(let s): return "the string \(JSONValue.quote(s))"
    case .array: return "an array"
    case .object: return "an object"
    }
  }

  /// A string quoted for a message, shortened when long so one line stays readable.
  static func quote(_ s: String) -> String {
    let limit = 60
    if s.count <= limit { return "\"\(s)\"" }
    return "\"\(s.prefix(limit))...\""
  }
}
