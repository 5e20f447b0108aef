import SimKernel

/// A trace pattern of `expect`: an event kind followed by `key=value` pairs that must match the
/// event's fields; `*` matches any run of characters in the kind or a value.
public struct TracePattern: Hashable, Sendable, CustomStringConvertible {
  /// The event kind to match, possibly with `*`.
  public let kind: String
  /// The `key=value` pairs the event's fields must match, in order written.
  public let fields: [(key: String, value: String)]
  public let description: String

  /// Parses `"delegate.didComplete task=book status=2*"`; nil if a pair has no `=` or is empty.
  public init?(_ text: String) {
    let words = text.split(separator: " ", omittingEmptySubsequences: true)
    guard let first = words.first else { return nil }
    kind = String(first)
    var pairs: [(String, String)] = []
    for word in words.dropFirst() {
      guard let eq = word.firstIndex(of: "="), eq != word.startIndex else { return nil }
      pairs.append((String(word[..<eq]), String(word[word.index(after: eq)...])))
    }
    fields = pairs
    description = text
  }

  /// Whether `event` has the kind and every field the pattern names.
  public func matches(_ event: TraceEvent) -> Bool {
    guard Self.wildcardMatch(kind, event.kind) else { return false }
    for (key, value) in fields {
      guard let actual = event[key], Self.wildcardMatch(value, actual.description) else { return false }
    }
    return true
  }

  public static func == (a: TracePattern, b: TracePattern) -> Bool { a.description == b.description }
  public func hash(into hasher: inout Hasher) { hasher.combine(description) }

  /// The value the first `key=value` pair for `key` requires, `*`s and all, if the pattern has one.
  func value(of key: String) -> String? { fields.first { $0.key == key }?.value }

  /// The field whose value narrows the events best that an index by value can find: the first
  /// with an exact value, else the first whose `*` value has a literal beginning or end
  /// (`FieldValueIndex`); nil when none has (`status=*`, `url=*x*`). `skipping` names a key
  /// looked up elsewhere.
  func lookupField(skipping skipped: String?) -> (key: String, value: String)? {
    let candidates = fields.filter { $0.key != skipped }
    if let exact = candidates.first(where: { !$0.value.utf8.contains(Self.star) }) { return exact }
    return candidates.first { $0.value.utf8.first != Self.star || $0.value.utf8.last != Self.star }
  }

  /// The wildcard, as the UTF-8 byte the matchers compare.
  static let star = UInt8(ascii: "*")

  /// Glob match where `*` is any run of characters (iterative, linear backtracking).
  ///
  /// Compared as UTF-8 bytes, in place (no copy of either string: expectations and reactions
  /// match every event of a long trace). The same as comparing Unicode scalars: a literal's bytes
  /// begin with a scalar's first byte, which never occurs inside another scalar, so they match
  /// only at a scalar's start.
  public static func wildcardMatch(_ pattern: String, _ text: String) -> Bool {
    var pattern = pattern
    var text = text
    return pattern.withUTF8 { p in text.withUTF8 { t in match(p, t) } }
  }

  private static func match(_ p: UnsafeBufferPointer<UInt8>, _ t: UnsafeBufferPointer<UInt8>) -> Bool {
    var pi = 0
    var ti = 0
    var star = -1
    var mark = 0
    while ti < t.count {
      if pi < p.count && p[pi] != Self.star && p[pi] == t[ti] {
        pi += 1
        ti += 1
      } else if pi < p.count && p[pi] == Self.star {
        star = pi
        mark = ti
        pi += 1
      } else if star >= 0 {
        pi = star + 1
        mark += 1
        ti = mark
      } else {
        return false
      }
    }
    while pi < p.count && p[pi] == Self.star { pi += 1 }
    return pi == p.count
  }
}
