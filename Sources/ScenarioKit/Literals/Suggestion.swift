/// "Did you mean" suggestions for misspelt keys, actions, enum values and names.
public enum Suggestion {
  /// The candidate closest to `word`, if it is close enough to be a likely typo: the same
  /// letters in another case, or within an edit distance of about a third of the word.
  /// Ties go to the earlier candidate, so suggestions are deterministic.
  /// Only the first `maxCandidates` are compared, and candidates whose length alone rules them
  /// out are skipped, so a file with thousands of names still validates quickly.
  public static func didYouMean(_ word: String, among candidates: [String]) -> String? {
    let lowered = word.lowercased()
    if let sameLetters = candidates.first(where: { $0.lowercased() == lowered }) { return sameLetters }
    var best: (String, Int)?
    let length = word.count
    for candidate in candidates.prefix(maxCandidates) where abs(candidate.count - length) <= 3 {
      let d = distance(lowered, candidate.lowercased())
      if d < (best?.1 ?? Int.max) { best = (candidate, d) }
    }
    guard let (candidate, d) = best else { return nil }
    let allowed = max(1, min(3, max(word.count, candidate.count) / 3))
    return d <= allowed ? candidate : nil
  }

  static let maxCandidates = 2_000

  /// Levenshtein distance between two strings, by Unicode scalars, with one row of memory.
  /// - Complexity: O(m x n).
  public static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a.unicodeScalars)
    let b = Array(b.unicodeScalars)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var row = Array(0...b.count)
    for i in 1...a.count {
      var diagonal = row[0]
      row[0] = i
      for j in 1...b.count {
        let above = row[j]
        row[j] = min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1))
        diagonal = above
      }
    }
    return row[b.count]
  }
}
