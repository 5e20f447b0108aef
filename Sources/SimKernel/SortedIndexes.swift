/// Two ascending lists of indexes (entries filed by name and entries for any name, faults by URL
/// and by host) merged into one ascending list: the file's order, for indexes that narrow a look
/// at every entry. For this package's modules only.
package func mergedAscending(_ first: [Int], _ second: [Int]) -> [Int] {
  if first.isEmpty { return second }
  if second.isEmpty { return first }
  var merged: [Int] = []
  merged.reserveCapacity(first.count + second.count)
  var a = 0
  var b = 0
  while a < first.count || b < second.count {
    if b == second.count || (a < first.count && first[a] < second[b]) {
      merged.append(first[a])
      a += 1
    } else {
      merged.append(second[b])
      b += 1
    }
  }
  return merged
}

extension RandomAccessCollection {
  /// The first index whose element satisfies `isAtOrPast`, which must be false for a prefix of the
  /// collection and true for the rest (a binary search; `endIndex` when none satisfies it). For
  /// this package's modules only.
  package func partitioningIndex(where isAtOrPast: (Element) -> Bool) -> Index {
    var low = startIndex
    var count = self.count
    while count > 0 {
      let half = count / 2
      let middle = index(low, offsetBy: half)
      if isAtOrPast(self[middle]) {
        count = half
      } else {
        low = index(after: middle)
        count -= half + 1
      }
    }
    return low
  }
}
