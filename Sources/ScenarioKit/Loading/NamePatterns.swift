/// The task names a scenario creates with `{n}` or `{task}` in them, asked whether a referenced
/// name fits one (`References.name(_:matches:)`) without trying every one: each is filed under
/// its literal text before the first placeholder, and a reference tries only those filed under
/// one of its own beginnings. A file with thousands of reactions, each naming its tasks, and
/// thousands of expectations made loading try every pair.
struct NamePatterns {
  private var byPrefix: [String: [String]] = [:]
  /// The lengths, in characters, of the beginnings filed, ascending: a reference looks up its
  /// own beginnings of these lengths only (every length of a long name would cost its square).
  private var prefixLengths: [Int] = []
  private var all: Set<String> = []

  init(_ patterns: [String]) {
    var lengths: Set<Int> = []
    for pattern in patterns where all.insert(pattern).inserted {
      let prefix = Self.literalPrefix(pattern)
      byPrefix[prefix, default: []].append(pattern)
      lengths.insert(prefix.count)
    }
    prefixLengths = lengths.sorted()
  }

  /// Whether `reference` fits one of the patterns, as `References.name(_:matches:)` decides.
  func match(_ reference: String) -> Bool {
    if all.contains(reference) { return true }
    guard !reference.hasNumberPlaceholder else { return false }
    var end = reference.startIndex
    var walked = 0
    for length in prefixLengths {
      guard let next = reference.index(end, offsetBy: length - walked, limitedBy: reference.endIndex) else {
        return false
      }
      end = next
      walked = length
      if let candidates = byPrefix[String(reference[..<end])],
        candidates.contains(where: { References.name(reference, matches: $0) })
      {
        return true
      }
    }
    return false
  }

  /// The characters before the first `{n}` or `{task}`, read as `References.fits` reads them.
  static func literalPrefix(_ pattern: String) -> String { String(References.literalEnds(pattern).prefix) }
}
