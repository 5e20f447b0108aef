import SimKernel

/// The wait queues a full admission pass need not visit, and the way to the next one it must
/// (`AdmissionPassRule.nextFullPass`).
///
/// A queue is *parked* after a full pass found every task in it in a known-blocked run that
/// still stands (`WaitQueue.wholeBlockedRun`). A later full pass would skip such a queue and only
/// ask again for the re-evaluation at the run's earliest end, which does nothing while the armed
/// timer is at or before that end. So a parked queue is visited again only when
/// - it changes (a task inserted or removed, a pass takes it out): `touch`;
/// - a group of admission's inputs its run reads changes its number, or the inputs every run
///   reads do (`AdmissionEpochs.tasks`): `release(changedFrom:)`;
/// - its run's end has come, or it is the earliest end and comes before the armed re-evaluation
///   (or none is armed): `next(from:below:now:armed:)`.
///
/// Every other queue is visited as before; an empty one leaves the set at its visit and comes
/// back with its next task. Without this, an app with thousands of sessions woken apart (a queue
/// each, nearly all of them empty or waiting for a start date) had every queue looked at again
/// at every wake and every re-evaluation: N per wake.
struct ParkedQueues {
  /// Queues a full pass must visit: those not parked.
  private var unparked = KeySet()
  private var parked = KeySet()
  /// The parked queues whose run reads each group, by the group's bit in `AdmissionInputGroups`.
  private var reading = [KeySet](repeating: KeySet(), count: AdmissionInputGroups.all.rawValue.bitWidth)
  /// Each parked queue's groups read (empty for a queue not parked).
  private var reads: [AdmissionInputGroups] = []
  /// Each parked queue's earliest end (`.distantFuture` for none, and for a queue not parked).
  private var ends = EarliestEnds()
  /// The numbers `release(changedFrom:)` saw last.
  private var seen = AdmissionEpochs()

  /// Whether any queue is parked: with none, the inputs' numbers need not be asked for.
  var hasParked: Bool { parkedCount > 0 }
  private var parkedCount = 0

  /// Queue `index` changed (or was made): a full pass must visit it.
  mutating func touch(_ index: Int32) {
    let i = Int(index)
    // The common case (a queue with tasks starting and finishing): already to be visited.
    if unparked.contains(i) { return }
    if i >= reads.count {
      reads.append(contentsOf: repeatElement([], count: i + 1 - reads.count))
      ends.grow(to: i + 1)
    }
    if parked.contains(i) { unpark(i) } else { unparked.insert(i) }
  }

  /// A full pass left queue `index` wholly blocked by `run`, which stands with the inputs
  /// numbered `epochs` (now): skip it from now on while nothing above says otherwise.
  mutating func park(_ index: Int32, _ run: WaitQueue.BlockedRun, epochs: AdmissionEpochs) {
    let i = Int(index)
    if parked.contains(i) { unpark(i) }
    // `release` is not called while nothing is parked: start from the numbers of now.
    if parkedCount == 0 { seen = epochs }
    unparked.remove(i)
    parked.insert(i)
    parkedCount += 1
    reads[i] = run.reads
    for bit in 0..<reading.count where run.reads.rawValue & (1 << bit) != 0 { reading[bit].insert(i) }
    ends.set(i, run.until ?? .distantFuture)
  }

  /// A full pass found queue `index` empty: nothing to visit until a task comes.
  mutating func drop(_ index: Int32) {
    unparked.remove(Int(index))
  }

  /// Admission's inputs are numbered `epochs` now: every parked queue whose run reads a group
  /// that changed its number since the last call is to be visited again.
  mutating func release(changedFrom epochs: AdmissionEpochs) {
    guard epochs != seen else { return }
    defer { seen = epochs }
    if epochs.tasks != seen.tasks {
      let all = parked
      all.forEach { unpark($0) }
      return
    }
    let moved = epochs.groupsMoved(since: seen).rawValue
    for bit in 0..<reading.count where moved & (1 << bit) != 0 {
      let readers = reading[bit]
      readers.forEach { unpark($0) }
    }
  }

  /// The first queue from `cursor` up to (not including) `limit` that a full pass must visit, at
  /// `now` with the re-evaluation timer `armed`: one not parked, one whose run's end has come, or
  /// the first whose run ends earliest among the parked ones before those, when no timer is
  /// armed at or before that end.
  ///
  /// The parked queues passed over would each only ask for the re-evaluation at their run's end.
  /// Those ending at or after the armed timer ask for nothing. The others end after the one
  /// picked, whose pass asks for its earlier end next, with nothing in between: a timer they
  /// armed would be replaced before anything else happened, so the run is the same without them.
  func next(from cursor: Int32, below limit: Int32, now: SimTime, armed: SimTime?) -> WaitQueue.Key? {
    let from = Int(cursor)
    let end = min(Int(limit), reads.count)
    guard from < end else { return nil }
    var bound = unparked.first(from: from, below: end) ?? end
    bound = ends.first(from: from, below: bound, before: SimTime(nanoseconds: now.nanoseconds &+ 1)) ?? bound
    // Before `bound` every queue is parked with a run that ends after now, if at all.
    let earliest = ends.earliest(from: from, below: bound)
    if earliest != .distantFuture, armed.map({ earliest < $0 }) ?? true,
      let first = ends.first(
        from: from, below: bound, before: SimTime(nanoseconds: earliest.nanoseconds &+ 1))
    {
      return WaitQueue.Key(index: Int32(first))
    }
    return bound < end ? WaitQueue.Key(index: Int32(bound)) : nil
  }

  private mutating func unpark(_ i: Int) {
    parked.remove(i)
    parkedCount -= 1
    for bit in 0..<reading.count where reads[i].rawValue & (1 << bit) != 0 { reading[bit].remove(i) }
    reads[i] = []
    ends.set(i, .distantFuture)
    unparked.insert(i)
  }
}

/// One instant per queue key in a tree of minimums: O(log n) to set one, and to find the first
/// key in a range whose instant is before a threshold.
struct EarliestEnds {
  /// Leaves at `leaves + i`; each inner node holds the minimum of its two children.
  private var nodes: [SimTime] = []
  private var leaves = 0

  /// Room for keys below `count`; the new ones hold `.distantFuture`.
  mutating func grow(to count: Int) {
    guard count > leaves else { return }
    var size = Swift.max(leaves, 64)
    while size < count { size *= 2 }
    let old = nodes
    let oldLeaves = leaves
    nodes = [SimTime](repeating: .distantFuture, count: 2 * size)
    leaves = size
    for i in 0..<oldLeaves { nodes[size + i] = old[oldLeaves + i] }
    var node = size - 1
    while node >= 1 {
      nodes[node] = Swift.min(nodes[2 * node], nodes[2 * node + 1])
      node -= 1
    }
  }

  mutating func set(_ i: Int, _ time: SimTime) {
    var node = leaves + i
    guard nodes[node] != time else { return }
    nodes[node] = time
    node /= 2
    while node >= 1 {
      let least = Swift.min(nodes[2 * node], nodes[2 * node + 1])
      if nodes[node] == least { break }
      nodes[node] = least
      node /= 2
    }
  }

  /// The earliest instant of the keys in `from..<end` (`.distantFuture` for none).
  func earliest(from: Int, below end: Int) -> SimTime {
    var low = from + leaves
    var high = Swift.min(end, leaves) + leaves
    var least = SimTime.distantFuture
    while low < high {
      if low & 1 == 1 {
        least = Swift.min(least, nodes[low])
        low += 1
      }
      if high & 1 == 1 {
        high -= 1
        least = Swift.min(least, nodes[high])
      }
      low /= 2
      high /= 2
    }
    return least
  }

  /// The first key in `from..<end` whose instant is before `threshold`.
  func first(from: Int, below end: Int, before threshold: SimTime) -> Int? {
    guard from < end, leaves > 0 else { return nil }
    return first(node: 1, covering: 0..<leaves, from: from, below: end, before: threshold)
  }

  private func first(
    node: Int, covering range: Range<Int>, from: Int, below end: Int, before threshold: SimTime
  ) -> Int? {
    guard range.lowerBound < end, range.upperBound > from, nodes[node] < threshold else { return nil }
    if range.count == 1 { return range.lowerBound }
    let middle = range.lowerBound + range.count / 2
    return first(
      node: 2 * node, covering: range.lowerBound..<middle, from: from, below: end, before: threshold)
      ?? first(
        node: 2 * node + 1, covering: middle..<range.upperBound, from: from, below: end, before: threshold)
  }
}
