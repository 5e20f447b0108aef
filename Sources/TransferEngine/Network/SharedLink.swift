import SimKernel

/// One direction of the current interface, shared max-min fairly by the transfers running on it.
///
/// Without per-flow caps max-min fairness is an equal share, so this is processor sharing:
/// every active flow is served at `capacity / n`. Rather than touching every flow at each
/// change, the link keeps a *virtual time* `V` (bytes served to each flow since the link was
/// made) and each flow's finish tag `F = V(join) + bytes to send`. A flow is done when `V`
/// reaches its tag; the flows sit in a min-heap by tag, so the next completion is the heap's
/// top and every arrival, departure or capacity change costs O(log n).
///
/// - Complexity: `add`, `remove` and `popFinished` are O(log n); `bytesRemaining` is O(1).
struct SharedLink {
  /// Bytes per second available to the whole direction.
  private(set) var capacity: Double = 0
  /// Virtual time in bytes per flow.
  private(set) var virtualBytes: Double = 0
  /// When `virtualBytes` was last brought up to date.
  private(set) var settledAt: SimTime = .zero
  /// Min-heap of (finish tag, flow id), with each flow's position for removal.
  private var heap: [(tag: Double, flow: Int32)] = []
  /// Heap index per flow id (flow ids are dense task numbers), -1 when absent.
  private var position: [Int] = []

  var activeCount: Int { heap.count }
  /// The flow that finishes first if nothing changes: the heap's top.
  var firstToFinish: Int32? { heap.first?.flow }

  func contains(_ flow: Int32) -> Bool { index(of: flow) != nil }

  private func index(of flow: Int32) -> Int? {
    let i = Int(flow)
    return i < position.count && position[i] >= 0 ? position[i] : nil
  }

  private mutating func setPosition(_ flow: Int32, _ index: Int) {
    let i = Int(flow)
    if i >= position.count { position.append(contentsOf: repeatElement(-1, count: i - position.count + 1)) }
    position[i] = index
  }

  /// Brings virtual time up to `now`; call before any change.
  mutating func settle(to now: SimTime) {
    if !heap.isEmpty && capacity > 0 && now > settledAt {
      virtualBytes += (now - settledAt).seconds * capacity / Double(heap.count)
    }
    settledAt = now
  }

  mutating func setCapacity(_ bytesPerSecond: Double, now: SimTime) {
    settle(to: now)
    capacity = bytesPerSecond
  }

  /// Adds a flow that has `bytes` left to move.
  mutating func add(_ flow: Int32, bytes: Int64, now: SimTime) {
    settle(to: now)
    precondition(index(of: flow) == nil, "internal inconsistency: flow \(flow) added twice")
    heap.append((virtualBytes + Double(bytes), flow))
    setPosition(flow, heap.count - 1)
    siftUp(heap.count - 1)
  }

  /// Removes a flow (interrupted or cancelled) and returns the bytes it still had to move.
  @discardableResult
  mutating func remove(_ flow: Int32, now: SimTime) -> Double {
    settle(to: now)
    guard let index = index(of: flow) else { return 0 }
    let remaining = max(0, heap[index].tag - virtualBytes)
    removeAt(index)
    return remaining
  }

  /// Bytes the flow still has to move, as of the last settle.
  func bytesRemaining(_ flow: Int32, now: SimTime) -> Double? {
    guard let index = index(of: flow) else { return nil }
    var v = virtualBytes
    if capacity > 0 && now > settledAt {
      v += (now - settledAt).seconds * capacity / Double(heap.count)
    }
    return max(0, heap[index].tag - v)
  }

  /// When the next flow finishes at the current shares, or nil if none will.
  func nextCompletion() -> SimTime? {
    guard let top = heap.first, capacity > 0 else { return nil }
    let bytes = max(0, top.tag - virtualBytes)
    let seconds = bytes * Double(heap.count) / capacity
    return settledAt + .seconds(rounding: seconds)
  }

  /// Removes and returns every flow whose tag has been reached (within a thousandth of a byte,
  /// absorbing the rounding of completion times up to whole nanoseconds).
  mutating func popFinished(now: SimTime) -> [Int32] {
    settle(to: now)
    var done: [Int32] = []
    while let top = heap.first, top.tag <= virtualBytes + 1e-3 {
      done.append(top.flow)
      removeAt(0)
    }
    return done
  }

  private mutating func removeAt(_ index: Int) {
    let flow = heap[index].flow
    setPosition(flow, -1)
    let last = heap.removeLast()
    guard index < heap.count else { return }
    heap[index] = last
    setPosition(last.flow, index)
    siftDown(index)
    siftUp(index)
  }

  private func precedes(_ a: (tag: Double, flow: Int32), _ b: (tag: Double, flow: Int32)) -> Bool {
    a.tag < b.tag || (a.tag == b.tag && a.flow < b.flow)
  }

  private mutating func siftUp(_ start: Int) {
    var child = start
    while child > 0 {
      let parent = (child - 1) / 2
      guard precedes(heap[child], heap[parent]) else { break }
      swapAt(child, parent)
      child = parent
    }
  }

  private mutating func siftDown(_ start: Int) {
    var parent = start
    while true {
      let left = 2 * parent + 1
      if left >= heap.count { return }
      var best = left
      if left + 1 < heap.count && precedes(heap[left + 1], heap[left]) { best = left + 1 }
      guard precedes(heap[best], heap[parent]) else { return }
      swapAt(best, parent)
      parent = best
    }
  }

  private mutating func swapAt(_ i: Int, _ j: Int) {
    heap.swapAt(i, j)
    setPosition(heap[i].flow, i)
    setPosition(heap[j].flow, j)
  }
}
