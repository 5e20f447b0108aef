import SimKernel

/// Names sorted by their UTF-8 bytes, forwards and backwards, so that the names a pattern can
/// match are found from its literal beginning or end by binary search rather than by trying every
/// name: a trace's task names for `*` patterns (N expectations like `task=f-7*` over N tasks then
/// cost about N log N, not N times the trace or the names), and a scenario's resource URLs for
/// templated URLs (`ResourceURLIndex`).
///
/// Bytes, not `String` order: `TracePattern.wildcardMatch` compares bytes, and only byte order
/// keeps every name with a given beginning in one run.
final class NameRanges {
  private let forward: [Entry]
  private let backward: [Entry]

  private struct Entry {
    var key: [UInt8]
    var name: String
  }

  init(_ names: some Sequence<String>) {
    var forward: [Entry] = []
    var backward: [Entry] = []
    for name in names {
      forward.append(Entry(key: Array(name.utf8), name: name))
      backward.append(Entry(key: Array(name.utf8.reversed()), name: name))
    }
    let byKey = { (a: Entry, b: Entry) in a.key.lexicographicallyPrecedes(b.key) }
    self.forward = forward.sorted(by: byKey)
    self.backward = backward.sorted(by: byKey)
  }

  /// The names `pattern` (with at least one `*`) can match: those with its literal beginning, or
  /// with its literal end, whichever run is shorter, each tested against the whole pattern. Nil
  /// when the pattern has neither (`*`, `*x*`): every name is a candidate then.
  func names(matching pattern: String) -> [String]? {
    let bytes = Array(pattern.utf8)
    guard let firstStar = bytes.firstIndex(of: TracePattern.star),
      let lastStar = bytes.lastIndex(of: TracePattern.star)
    else {
      return nil
    }
    let prefix = Array(bytes[..<firstStar])
    let suffix = Array(bytes[(lastStar + 1)...])
    return candidates(prefix: prefix, suffix: suffix)?.filter { TracePattern.wildcardMatch(pattern, $0) }
  }

  /// The names that begin with `prefix` or end with `suffix` (UTF-8 bytes), whichever run is
  /// shorter: a superset of those a pattern with that literal beginning and end can match. Nil
  /// when both are empty: every name is a candidate then.
  func candidates(prefix: [UInt8], suffix: [UInt8]) -> [String]? {
    let reversedSuffix = Array(suffix.reversed())
    let byPrefix = prefix.isEmpty ? nil : Self.run(of: prefix, in: forward)
    let bySuffix = suffix.isEmpty ? nil : Self.run(of: reversedSuffix, in: backward)
    let chosen: ([Entry], Range<Int>)
    switch (byPrefix, bySuffix) {
    case (let p?, let s?): chosen = p.count <= s.count ? (forward, p) : (backward, s)
    case (let p?, nil): chosen = (forward, p)
    case (nil, let s?): chosen = (backward, s)
    case (nil, nil): return nil
    }
    return chosen.0[chosen.1].map(\.name)
  }

  /// The entries whose key begins with `start`: from the first key not below it to the first key
  /// not below it followed by 0xFF, a byte no UTF-8 text holds.
  private static func run(of start: [UInt8], in entries: [Entry]) -> Range<Int> {
    let end = start + [0xFF]
    let lower = entries.partitioningIndex { !$0.key.lexicographicallyPrecedes(start) }
    let upper = entries.partitioningIndex { !$0.key.lexicographicallyPrecedes(end) }
    return lower..<upper
  }
}
