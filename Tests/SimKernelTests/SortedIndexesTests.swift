import Foundation
import SimKernel
import Testing

/// The package's small helpers over ascending indexes: a binary search for a partition point and
/// a merge of two ascending lists, against plain scans.
@Suite struct SortedIndexesTests {
  @Test func partitioningIndexIsTheFirstElementPastThePoint() {
    let values = [1, 3, 3, 5, 8, 13]
    for point in -1...15 {
      let expected = values.firstIndex { $0 >= point } ?? values.endIndex
      #expect(values.partitioningIndex { $0 >= point } == expected, "point \(point)")
      #expect(values[2...].partitioningIndex { $0 >= point } == max(2, expected), "slice, point \(point)")
    }
    #expect([Int]().partitioningIndex { $0 >= 0 } == 0)
  }

  @Test func mergedAscendingKeepsEveryIndexInOrder() {
    let cases: [([Int], [Int])] = [
      ([], []), ([], [2, 4]), ([1, 5], []), ([1, 4, 9], [2, 3, 10]), ([7], [1, 2]),
    ]
    for (first, second) in cases {
      #expect(mergedAscending(first, second) == (first + second).sorted(), "\(first) \(second)")
    }
  }
}
