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
