/// Comparing what is written, not what `==` says: Swift's `==` on text takes canonically
/// equivalent strings (a name in another Unicode normalization form) as equal, and a trace
/// promises the same bytes.
extension String {
  /// Whether the two strings are the same UTF-8 bytes. Compared where the bytes lie: iterating
  /// a UTF-8 view costs several times more (it was a twentieth of loading a scenario).
  package func hasSameUTF8(_ other: String) -> Bool {
    guard utf8.count == other.utf8.count else { return false }
    let contiguous = utf8.withContiguousStorageIfAvailable { a in
      other.utf8.withContiguousStorageIfAvailable { b in Self.sameBytes(a, b) }
    }
    return (contiguous ?? nil) ?? utf8.elementsEqual(other.utf8)
  }

  /// Two buffers of the same length compared eight bytes at a time (URLs and names are tens of
  /// bytes, compared at every lookup of a resource or a queue).
  private static func sameBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let p = a.baseAddress, let q = b.baseAddress else { return a.count == b.count }
    let pa = UnsafeRawPointer(p)
    let qb = UnsafeRawPointer(q)
    var i = 0
    while i + 8 <= a.count {
      guard
        pa.loadUnaligned(fromByteOffset: i, as: UInt64.self)
          == qb.loadUnaligned(fromByteOffset: i, as: UInt64.self)
      else { return false }
      i += 8
    }
    while i < a.count {
      guard p[i] == q[i] else { return false }
      i += 1
    }
    return true
  }

  /// Feeds the text's UTF-8 bytes to `hasher`: the same for the same bytes, however the text is
  /// stored, and no copy where they lie together.
  package func hashUTF8(into hasher: inout Hasher) {
    let hashed: Void? = utf8.withContiguousStorageIfAvailable {
      hasher.combine(bytes: UnsafeRawBufferPointer($0))
    }
    if hashed == nil { Array(utf8).withUnsafeBytes { hasher.combine(bytes: $0) } }
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
///
/// Ordered by the bytes too (`<`), so a list of names sorted for a deterministic output puts two
/// names that `==` on `String` would take as equal in one order on every run.
package struct WrittenKey: Hashable, Comparable, Sendable {
  package let text: String

  package init(_ text: String) { self.text = text }

  package static func == (a: WrittenKey, b: WrittenKey) -> Bool { a.text.hasSameUTF8(b.text) }

  package static func < (a: WrittenKey, b: WrittenKey) -> Bool {
    a.text.utf8.lexicographicallyPrecedes(b.text.utf8)
  }

  package func hash(into hasher: inout Hasher) { text.hashUTF8(into: &hasher) }
}
