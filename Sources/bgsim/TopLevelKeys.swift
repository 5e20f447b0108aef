import Foundation

/// The keys at the top level of a JSON object in a file too large to be a scenario, read in
/// chunks, so that `check .` in a project with a large JSON file of another kind (a 12 MB
/// `package-lock.json`, an animation) skips it instead of failing on it, without reading it whole
/// into memory. Only the top level is looked at: nested objects, arrays and strings are skipped
/// byte by byte, keeping their depth.
struct TopLevelKeys {
  /// What was found at the top level.
  enum Shape {
    /// The file's JSON is an object: its top-level keys, and the `$schema` string if any.
    case object(keys: Set<String>, schema: String?)
    /// The JSON is an array or a scalar.
    case notAnObject
    /// Not JSON (or not readable): left to the loader, which says why.
    case unknown
  }

  /// Keys and the `$schema` value longer than this are not kept (no scenario key is that long).
  static let longest = 4096
  static let chunk = 1 << 20

  /// Reads `path` chunk by chunk, stopping at the first key of `decisive` or at a `$schema` of
  /// JSON Schema's: either decides what the file is, however much of it follows.
  static func read(_ path: String, stoppingAt decisive: Set<String>) -> Shape {
    guard let stream = InputStream(fileAtPath: path) else { return .unknown }
    stream.open()
    defer { stream.close() }
    var scanner = TopLevelKeys(decisive: decisive)
    var buffer = [UInt8](repeating: 0, count: chunk)
    while true {
      let count = stream.read(&buffer, maxLength: chunk)
      if count < 0 { return .unknown }
      if count == 0 { break }
      for byte in buffer[0..<count] {
        scanner.take(byte)
        if scanner.done { break }
      }
      if scanner.done { break }
    }
    return scanner.shape
  }

  private enum State {
    case start, key, afterKey, value, afterValue
  }

  private let decisive: Set<String>
  private var state = State.start
  private var started = false
  private var notObject = false
  private var failed = false
  /// Depth of arrays and objects inside the current top-level value.
  private var depth = 0
  private var inString = false
  private var escaped = false
  /// The key or top-level string value being read, while it is short enough to keep.
  private var text: [UInt8] = []
  private var currentKey = ""
  private var keys: Set<String> = []
  private var schema: String?
  private(set) var done = false

  init(decisive: Set<String>) { self.decisive = decisive }

  var shape: Shape {
    if notObject { return .notAnObject }
    if failed || !started { return .unknown }
    return .object(keys: keys, schema: schema)
  }

  private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }

  mutating func take(_ b: UInt8) {
    if !started {
      if Self.isSpace(b) || b == 0xEF || b == 0xBB || b == 0xBF { return }  // a UTF-8 byte order mark
      started = true
      if b == UInt8(ascii: "{") {
        state = .start
      } else if b == UInt8(ascii: "[") || b == UInt8(ascii: "\"") || b == UInt8(ascii: "-")
        || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "t")
        || b == UInt8(ascii: "f") || b == UInt8(ascii: "n")
      {
        notObject = true
        done = true
      } else {
        failed = true
        done = true
      }
      return
    }
    if inString {
      if escaped {
        escaped = false
      } else if b == UInt8(ascii: "\\") {
        escaped = true
      } else if b == UInt8(ascii: "\"") {
        inString = false
        endString()
        return
      }
      if (state == .key || (state == .value && depth == 0)) && text.count <= Self.longest { text.append(b) }
      return
    }
    if Self.isSpace(b) { return }
    switch state {
    case .start:
      if b == UInt8(ascii: "\"") {
        beginString(.key)
      } else if b == UInt8(ascii: "}") {
        done = true
      } else {
        fail()
      }
    case .key:
      fail()
    case .afterKey:
      if b == UInt8(ascii: ":") { state = .value } else { fail() }
    case .value:
      if b == UInt8(ascii: "\"") {
        inString = true
        text = []
      } else if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") {
        depth += 1
      } else if depth == 0 {
        // After a number, true, false or null: the next member, the end, or more of the scalar.
        if b == UInt8(ascii: ",") {
          state = .start
        } else if b == UInt8(ascii: "}") {
          done = true
        } else if b == UInt8(ascii: "]") {
          fail()
        }
      } else if b == UInt8(ascii: "}") || b == UInt8(ascii: "]") {
        depth -= 1
        if depth == 0 { state = .afterValue }
      }
    case .afterValue:
      if b == UInt8(ascii: ",") {
        state = .start
      } else if b == UInt8(ascii: "}") {
        done = true
      } else {
        fail()
      }
    }
  }

  private mutating func beginString(_ next: State) {
    state = next
    inString = true
    text = []
  }

  private mutating func endString() {
    switch state {
    case .key:
      currentKey = text.count <= Self.longest ? String(decoding: text, as: UTF8.self) : ""
      if !currentKey.isEmpty { keys.insert(currentKey) }
      if decisive.contains(currentKey) { done = true }
      state = .afterKey
    case .value where depth == 0:
      if currentKey == "$schema", text.count <= Self.longest {
        schema = String(decoding: text, as: UTF8.self)
        if schema?.contains(ScenarioFiles.jsonSchemaHost) == true { done = true }
      }
      state = .afterValue
    default:
      break
    }
  }

  private mutating func fail() {
    failed = true
    done = true
  }
}
