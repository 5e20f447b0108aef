/// Searching names, URLs and patterns for the placeholders a scenario may write in them, `{n}`
/// (the number of a numbered entry) and `{task}` (the task a reaction answers), and for
/// wildcards and separators (`*`, `=`).
extension StringProtocol {
  /// Whether the text holds `{n}`.
  var hasNumberPlaceholder: Bool { containsBytes(of: "{n}") }
  /// Whether the text holds `{task}`.
  var hasTaskPlaceholder: Bool { containsBytes(of: "{task}") }
  /// Whether the text holds `{n}` or `{task}`.
  var hasPlaceholder: Bool { hasNumberPlaceholder || hasTaskPlaceholder }

  /// Whether the text holds `literal`, matched on UTF-8 bytes. `"...".contains("{n}")` calls
  /// Foundation's search once Foundation is imported, which costs thousands of instructions a
  /// call (a twentieth of loading a fuzz scenario).
  func containsBytes(of literal: StaticString) -> Bool {
    literal.withUTF8Buffer { needle in
      utf8.withContiguousStorageIfAvailable { Self.find(needle, in: $0) }
        ?? Self.find(needle, in: Array(utf8))
    }
  }

  private static func find(_ needle: UnsafeBufferPointer<UInt8>, in text: some Collection<UInt8>) -> Bool {
    guard let first = needle.first else { return true }
    var start = text.startIndex
    while let at = text[start...].firstIndex(of: first) {
      if text[at...].starts(with: needle) { return true }
      start = text.index(after: at)
    }
    return false
  }
}
