/// "Did you mean" suggestions for misspelt keys, actions, enum values and names.
public enum Suggestion {
  /// The candidate closest to `word`, if it is close enough to be a likely typo: the same
  /// letters in another case, or within an edit distance of about a third of the word.
  /// Among candidates equally far, the nearest wins (`TieBreak`): for `photo-6`, `photo-5`
  /// rather than `photo-1`; remaining ties go to the earlier candidate, so suggestions are
  /// deterministic.
  /// Only the first `maxCandidates` are compared, and candidates whose length alone rules them
  /// out are skipped, so a file with thousands of names still validates quickly.
  public static func didYouMean(_ word: String, among candidates: [String]) -> String? {
    guard !word.isEmpty else { return nil }
    let lowered = word.lowercased()
    if let sameLetters = candidates.first(where: { $0.lowercased() == lowered }) { return sameLetters }
    var best: (candidate: String, distance: Int, tie: TieBreak)?
    let length = word.count
    for candidate in candidates.prefix(maxCandidates) where abs(candidate.count - length) <= 3 {
      let folded = candidate.lowercased()
      let d = distance(lowered, folded)
      if let current = best, d > current.distance { continue }
      let tie = TieBreak(lowered, folded)
      if let current = best, d == current.distance, !(tie < current.tie) { continue }
      best = (candidate, d, tie)
    }
    guard let (candidate, d, _) = best else { return nil }
    let allowed = max(1, min(3, max(word.count, candidate.count) / 3))
    return d <= allowed ? candidate : nil
  }

  static let maxCandidates = 1_000

  /// How near a candidate is to the word beyond the edit distance, smaller first: the gap
  /// between their trailing numbers (`photo-6` to `photo-5` is 1, to `photo-1` is 5), then the
  /// gap between the first characters that differ (`task-c` is nearer `task-b` than `task-a`).
  struct TieBreak: Comparable {
    var numberGap: UInt64
    var characterGap: UInt32

    init(_ word: String, _ candidate: String) {
      if let a = Self.trailingNumber(word), let b = Self.trailingNumber(candidate) {
        numberGap = a > b ? a - b : b - a
      } else {
        numberGap = .max
      }
      let pair = zip(word.unicodeScalars, candidate.unicodeScalars).first { $0 != $1 }
      characterGap = pair.map { $0.value > $1.value ? $0.value - $1.value : $1.value - $0.value } ?? 0
    }

    static func < (a: TieBreak, b: TieBreak) -> Bool {
      (a.numberGap, a.characterGap) < (b.numberGap, b.characterGap)
    }

    /// The number the text ends with (up to 18 digits, so it always fits), or nil.
    static func trailingNumber(_ text: String) -> UInt64? {
      let digits = text.unicodeScalars.reversed().prefix { $0 >= "0" && $0 <= "9" }
      guard !digits.isEmpty, digits.count <= 18 else { return nil }
      return UInt64(String(String.UnicodeScalarView(digits.reversed())))
    }
  }

  /// Edit distance counting an insertion, deletion, substitution or swap of two neighbouring
  /// characters as one edit (optimal string alignment), by Unicode scalars: `hodl` is one
  /// edit from `hold`, as a typist would expect.
  /// - Complexity: O(m x n) time, O(n) memory.
  public static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a.unicodeScalars)
    let b = Array(b.unicodeScalars)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous2 = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
          current[j] = min(current[j], previous2[j - 2] + 1)
        }
      }
      (previous2, previous, current) = (previous, current, previous2)
    }
    return previous[b.count]
  }
}
