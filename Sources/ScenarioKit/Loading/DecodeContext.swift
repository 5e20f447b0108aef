import SafeOutput
import SimKernel
import TransferEngine

/// Collects the problems found while decoding one file, so that all of them are reported
/// together instead of stopping at the first.
final class DecodeContext {
  let file: String
  private(set) var problems: [ScenarioProblem] = []
  /// Names, sessions and URLs seen while decoding, checked once everything is read.
  var references = References()
  /// The time of day of `startsAt`, in seconds since midnight: what `"22:00"` instants count from.
  var startOfDay: Int64?
  /// `device.iosVersion`: the `policy` section's knobs start from its defaults.
  var iosVersion = IOSVersion.newest
  /// A Swift app, not the file, creates the tasks: expectations may name tasks no action creates.
  let tasksComeFromSwiftApp: Bool

  init(file: String, tasksComeFromSwiftApp: Bool = false) {
    self.file = file
    self.tasksComeFromSwiftApp = tasksComeFromSwiftApp
  }

  func report(_ kind: ScenarioProblem.Kind, _ path: String, at position: JSONPosition?, _ message: String) {
    problems.append(ScenarioProblem(kind: kind, file: file, path: path, position: position, message: message))
  }

  /// After this many problems, references get no suggestions: each suggestion scans every
  /// declared name, and a file with thousands of bad references must still be checked quickly.
  static let suggestionLimit = 500

  /// A did-you-mean for a reference to a declared name, while under `suggestionLimit`.
  func suggest(_ word: String, among candidates: [String]) -> String? {
    problems.count < Self.suggestionLimit ? Suggestion.didYouMean(word, among: candidates) : nil
  }

  /// `expected a duration like "30s", found the number -1`.
  func wrongType(_ path: String, _ value: JSONValue, expected: String) {
    report(.type, path, at: value.position, "expected \(expected), found \(value.summary)")
  }

  /// A value of the right type that is not allowed; `message` quotes it and says what is.
  func invalid(_ path: String, _ value: JSONValue, _ message: String) {
    report(.value, path, at: value.position, message)
  }

  /// The problems in file order (problems about the file itself first); stable for ties.
  var sortedProblems: [ScenarioProblem] {
    problems.enumerated().sorted { a, b in
      switch (a.element.position, b.element.position) {
      case (nil, nil): return a.offset < b.offset
      case (nil, _): return true
      case (_, nil): return false
      case (let p?, let q?): return p == q ? a.offset < b.offset : p < q
      }
    }.map(\.element)
  }
}

/// The JSON path of a member or element, as messages print it: `device.network[0].down`.
enum JSONPath {
  static func member(_ parent: String, _ key: String) -> String { parent.isEmpty ? key : "\(parent).\(key)" }
  static func element(_ parent: String, _ index: Int) -> String { "\(parent)[\(index)]" }
}

/// What a value must be, and how to turn JSON into it, reporting problems to the context.
struct ValueType<T> {
  /// For messages: `a duration like "30s"`.
  let expected: String
  /// Returns nil after reporting when the value does not fit.
  let decode: (JSONValue, String, DecodeContext) -> T?
}

/// Reads the members of one JSON object, remembering which keys were asked for so that the
/// rest can be reported as unknown (with a suggestion) by `finish()`.
struct ObjectReader {
  let context: DecodeContext
  let path: String
  let value: JSONValue
  let members: [JSONMember]
  private var known: [String] = []

  /// Nil (after reporting) when `value` is not an object.
  init?(_ value: JSONValue, path: String, context: DecodeContext, expected: String = "an object") {
    guard let members = value.members else {
      context.wrongType(path, value, expected: expected)
      return nil
    }
    self.context = context
    self.path = path
    self.value = value
    self.members = members
  }

  func has(_ key: String) -> Bool { members.contains { $0.key.hasSameUTF8(key) } }

  /// The raw value of a key, marking the key as known.
  mutating func raw(_ key: String) -> JSONValue? {
    known.append(key)
    return members.first { $0.key.hasSameUTF8(key) }?.value
  }

  /// Decodes a key that may be left out; nil when absent or invalid.
  mutating func optional<T>(_ key: String, _ type: ValueType<T>) -> T? {
    guard let v = raw(key) else { return nil }
    return type.decode(v, JSONPath.member(path, key), context)
  }

  /// Decodes a key that must be present, reporting it as missing otherwise.
  mutating func required<T>(_ key: String, _ type: ValueType<T>) -> T? {
    guard let v = raw(key) else {
      context.report(
        .missingKey, path, at: value.position, "missing required key '\(key)' (\(type.expected))")
      return nil
    }
    return type.decode(v, JSONPath.member(path, key), context)
  }

  /// Marks every key as known: used once a value is so wrong (an unknown action) that
  /// complaining about its other keys would only be noise.
  mutating func acceptAll() { known.append(contentsOf: members.map(\.key)) }

  /// Reads a name that refers to something declared elsewhere and records the use for
  /// `References.check`.
  mutating func reference(
    _ key: String, _ type: ValueType<String>, into list: WritableKeyPath<References, [References.Use]>
  ) -> String? {
    guard let name = required(key, type), let v = raw(key) else { return nil }
    context.references[keyPath: list].append(
      .init(name: name, path: JSONPath.member(path, key), position: v.position))
    return name
  }

  /// Marks keys as known without reading them (read elsewhere, such as `do` and `at`).
  mutating func accept(_ keys: String...) { known.append(contentsOf: keys) }

  /// Reports every key that was not asked for, except `x-...` keys, which are for users' notes.
  func finish() {
    var seen = Set<String>()
    let known = self.known.filter { seen.insert($0).inserted }
    for member in members
    where !known.contains(where: { $0.hasSameUTF8(member.key) }) && !member.key.hasPrefix("x-") {
      let message: String
      let key = TerminalText.shortened(member.key)
      if let suggestion = Suggestion.didYouMean(member.key, among: known) {
        message = "unknown key '\(key)'; did you mean '\(suggestion)'?"
      } else {
        let list = known.isEmpty ? "no keys" : known.joined(separator: ", ")
        message = "unknown key '\(key)'; expected \(list) (keys starting with \"x-\" are ignored)"
      }
      context.report(.unknownKey, path, at: member.keyPosition, message)
    }
  }
}
