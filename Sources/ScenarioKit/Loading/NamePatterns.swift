import SimKernel

/// The task names a scenario creates with `{n}` or `{task}` in them, asked whether a referenced
/// name fits one (`References.name(_:matches:)`) without trying every one: each is filed under
/// its literal text before the first placeholder, and a reference tries only those filed under
/// one of its own beginnings. A file with thousands of reactions, each naming its tasks, and
/// thousands of expectations made loading try every pair.
///
/// By bytes throughout, as names are compared in a run.
struct NamePatterns {
  private var byPrefix: [[UInt8]: [String]] = [:]
  /// The lengths, in bytes, of the beginnings filed, ascending: a reference looks up its own
  /// beginnings of these lengths only (every length of a long name would cost its square).
  private var prefixLengths: [Int] = []
  private var all: Set<WrittenKey> = []

  init(_ patterns: [String]) {
    var lengths: Set<Int> = []
    for pattern in patterns where all.insert(WrittenKey(pattern)).inserted {
      let prefix = Self.literalPrefix(pattern)
      byPrefix[prefix, default: []].append(pattern)
      lengths.insert(prefix.count)
    }
    prefixLengths = lengths.sorted()
  }

  /// Whether `reference` fits one of the patterns, as `References.name(_:matches:)` decides.
  func match(_ reference: String) -> Bool {
    if all.contains(WrittenKey(reference)) { return true }
    guard !reference.hasNumberPlaceholder else { return false }
    let bytes = Array(reference.utf8)
    for length in prefixLengths {
      guard length <= bytes.count else { return false }
      if let candidates = byPrefix[Array(bytes[..<length])],
        candidates.contains(where: { References.name(reference, matches: $0) })
      {
        return true
      }
    }
    return false
  }

  /// The bytes before the first `{n}` or `{task}`, read as `References.fits` reads them.
  static func literalPrefix(_ pattern: String) -> [UInt8] {
    Array(References.literalEnds(pattern).prefix.utf8)
  }
}
