/// A set of small non-negative integers (queue keys, session record indexes) as a bit per key:
/// O(1) to add or remove one, and finding the next member costs a word per 64 keys skipped.
struct KeySet {
  private var words: [UInt64] = []

  func contains(_ i: Int) -> Bool {
    let w = i >> 6
    return w < words.count && words[w] & (1 << UInt64(i & 63)) != 0
  }

  mutating func insert(_ i: Int) {
    let w = i >> 6
    if w >= words.count { words.append(contentsOf: repeatElement(0, count: w + 1 - words.count)) }
    words[w] |= 1 << UInt64(i & 63)
  }

  mutating func remove(_ i: Int) {
    let w = i >> 6
    if w < words.count { words[w] &= ~(1 << UInt64(i & 63)) }
  }

  /// The smallest member at or after `from` and before `end`.
  func first(from: Int, below end: Int) -> Int? {
    var w = from >> 6
    guard w < words.count, from < end else { return nil }
    var word = words[w] & (UInt64.max << UInt64(from & 63))
    while true {
      if word != 0 {
        let i = w << 6 + word.trailingZeroBitCount
        return i < end ? i : nil
      }
      w += 1
      guard w < words.count, w << 6 < end else { return nil }
      word = words[w]
    }
  }

  /// Calls `body` with each member, in ascending order.
  func forEach(_ body: (Int) -> Void) {
    for (w, word) in words.enumerated() {
      var rest = word
      while rest != 0 {
        body(w << 6 + rest.trailingZeroBitCount)
        rest &= rest - 1
      }
    }
  }
}
