/// An element a `MinHeap` orders: `precedes` must be a strict total order, so that the heap's
/// answers do not depend on the order elements came in.
protocol HeapOrdered {
  func precedes(_ other: Self) -> Bool
}

/// A binary min-heap in an array: the first element precedes every other. The known-blocked
/// run keeps its ends and the tasks it will visit again in such heaps (`KnownBlockedRun`).
struct MinHeap<Element: HeapOrdered> {
  private(set) var elements: [Element] = []

  var first: Element? { elements.first }
  var count: Int { elements.count }
  var isEmpty: Bool { elements.isEmpty }

  mutating func push(_ element: Element) {
    elements.append(element)
    var i = elements.count - 1
    while i > 0 {
      let parent = (i - 1) / 2
      guard elements[i].precedes(elements[parent]) else { return }
      elements.swapAt(i, parent)
      i = parent
    }
  }

  /// Removes the first element (the heap must not be empty).
  mutating func removeFirst() {
    let last = elements.removeLast()
    guard !elements.isEmpty else { return }
    elements[0] = last
    var i = 0
    while true {
      let left = 2 * i + 1
      guard left < elements.count else { return }
      let right = left + 1
      let child = right < elements.count && elements[right].precedes(elements[left]) ? right : left
      guard elements[child].precedes(elements[i]) else { return }
      elements.swapAt(i, child)
      i = child
    }
  }

  /// Keeps the elements for which `keep` holds, and the heap's order.
  mutating func filter(_ keep: (Element) -> Bool) {
    let kept = elements.filter(keep)
    elements.removeAll(keepingCapacity: true)
    for element in kept { push(element) }
  }

  mutating func removeAll() { elements.removeAll(keepingCapacity: true) }
}
