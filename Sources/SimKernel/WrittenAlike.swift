/// Comparing what is written, not what `==` says: Swift's `==` on text takes canonically
/// equivalent strings (a name in another Unicode normalization form) as equal, and a trace
/// promises the same bytes.
extension String {
  /// Whether the two strings are the same UTF-8 bytes. Compared where the bytes lie: iterating
  /// a UTF-8 view costs several times more (it was a twentieth of loading a scenario).
  package func hasSameUTF8(_ other: String) -> Bool {
    guard utf8.count == other.utf8.count else { return false }
    let contiguous = utf8.withContiguousStorageIfAvailable { a in
      other.utf8.withContiguousStorageIfAvailable { b in
        for i in 0..<a.count where a[i] != b[i] { return false }
        return true
      }
    }
    return (contiguous ?? nil) ?? utf8.elementsEqual(other.utf8)
  }
}

extension TraceEvent {
  /// Whether this event and `other` are written as the same bytes (`jsonLine`). Usually known
  /// from their values, without writing either: equal numbers are written alike (0 and -0 are
  /// both `0`), and text is compared by its bytes. Where the values differ in a way that may
  /// still be written alike (an integer and a whole fraction), the lines are written and compared.
  public func isWrittenAs(_ other: TraceEvent) -> Bool {
    if hasSameValues(other) { return true }
    return jsonLine.hasSameUTF8(other.jsonLine)
  }

  /// True only when the two are written alike; false may still be written alike.
  private func hasSameValues(_ other: TraceEvent) -> Bool {
    guard time == other.time, kind.hasSameUTF8(other.kind), fields.count == other.fields.count else {
      return false
    }
    for (f, g) in zip(fields, other.fields) {
      guard f.key.hasSameUTF8(g.key) else { return false }
      switch (f.value, g.value) {
      case (.string(let s), .string(let t)): guard s.hasSameUTF8(t) else { return false }
      case (.int(let i), .int(let j)): guard i == j else { return false }
      case (.double(let d), .double(let e)): guard d == e else { return false }
      case (.bool(let p), .bool(let q)): guard p == q else { return false }
      case (.duration(let d), .duration(let e)): guard d == e else { return false }
      default: return false
      }
    }
    return true
  }
}

/// Text as a dictionary key that is equal to another only when their UTF-8 bytes are: names in
/// a trace are told apart as they are written (`hasSameUTF8`), where a `String` key would file a
/// name in another normalization form with this one. Hashing the bytes where they lie costs no
/// allocation, where an `[UInt8]` key costs one per key made.
package struct WrittenKey: Hashable {
  package let text: String

  package init(_ text: String) { self.text = text }

  package static func == (a: WrittenKey, b: WrittenKey) -> Bool { a.text.hasSameUTF8(b.text) }

  package func hash(into hasher: inout Hasher) {
    var text = text
    text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
  }
}
