/// Delta debugging (Zeller's ddmin) over a list: the smallest sublist it can find, by removing
/// chunks of halving size, for which `fails` still holds. `fails(list)` is assumed true.
public enum Shrinker {
  /// The smallest failing sublist found, in the list's order.
  public static func minimize<Element>(_ list: [Element], fails: ([Element]) -> Bool) -> [Element] {
    var current = list
    var chunks = 2
    while current.count >= 2 {
      let size = (current.count + chunks - 1) / chunks
      var reduced = false
      var start = 0
      while start < current.count {
        let end = min(start + size, current.count)
        // The complement of one chunk: the list without it.
        let candidate = Array(current[..<start] + current[end...])
        if !candidate.isEmpty && fails(candidate) {
          current = candidate
          chunks = max(chunks - 1, 2)
          reduced = true
          break
        }
        start = end
      }
      if !reduced {
        if chunks >= current.count { break }
        chunks = min(chunks * 2, current.count)
      }
    }
    return current
  }
}
