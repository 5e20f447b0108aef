/// A handle to a scheduled event, for cancelling it without searching the queue.
///
/// It names the event's slot and the unique sequence number it was scheduled with; the slot
/// remembers the sequence number of its current occupant, so a handle to an event that fired
/// or was cancelled never matches again, even after the slot is reused.
public struct EventHandle: Hashable, Sendable {
  @usableFromInline let slot: UInt32
  @usableFromInline let sequence: UInt64
  @inlinable init(slot: UInt32, sequence: UInt64) {
    self.slot = slot
    self.sequence = sequence
  }
}

/// The simulation's pending events, ordered by time and then by the order they were scheduled.
///
/// A 4-ary min-heap of 16-byte keys: the time, and the sequence number packed above the slot
/// that holds the payload. Events scheduled for the same instant come out in insertion order
/// (the monotonically increasing sequence number breaks ties), which is what makes runs
/// deterministic. Payloads stay put in their slot while the keys move, so a node's four
/// children share one cache line whatever the payload type.
///
/// Popping leaves the old top in place as a hole, marked `holeAtTop`: the next `schedule` fills
/// it with its key and sifts that down once, where a pop and a push would sift twice (a handler
/// that schedules its follow-up, the common case, and all of the hold benchmark). Anything else
/// that reads the heap closes the hole first, as a plain pop would have. Keys are totally
/// ordered (sequence numbers are unique), so the order events come out in is the same.
///
/// Cancellation is O(1): it frees the slot at once, and the orphaned key is recognised (its
/// sequence number no longer matches the slot's) and discarded when it reaches the top. When
/// orphans outnumber live events the heap is rebuilt, so memory stays proportional to `count`.
///
/// Limits, checked by preconditions: 2^40 (about 10^12) events scheduled over a queue's life
/// and 2^24 (about 16 million) events pending at once.
///
/// - Complexity: `schedule` and `popNext` are O(log n); `cancel`, `isLive` and `peekTime` are
///   O(1) amortised.
public struct EventQueue<Payload> {
  /// One heap key: ordered by `time`, then by `tag`, which is the sequence number shifted
  /// above the slot index (sequence numbers are unique, so the slot never decides the order).
  @usableFromInline struct Key: Sendable {
    @usableFromInline var time: Int64
    @usableFromInline var tag: UInt64

    @inlinable init(time: Int64, tag: UInt64) {
      self.time = time
      self.tag = tag
    }

    @inlinable var slot: Int { Int(truncatingIfNeeded: tag & EventQueue.slotMask) }
    @inlinable var sequence: UInt64 { tag >> EventQueue.slotBits }

    @inlinable func precedes(_ other: Key) -> Bool {
      time < other.time || (time == other.time && tag < other.tag)
    }
  }

  @usableFromInline static var slotBits: UInt64 { 24 }
  @usableFromInline static var slotMask: UInt64 { (1 << slotBits) - 1 }
  @usableFromInline static var sequenceLimit: UInt64 { 1 << (64 - slotBits) }
  /// Set in the stamp of a slot with no pending event; no real sequence number reaches it.
  @usableFromInline static var freeMark: UInt64 { 1 << 63 }

  @usableFromInline var heap: [Key] = []
  /// True when `heap[0]` is the key of an event already popped, waiting to be replaced.
  @usableFromInline var holeAtTop = false
  /// Where a pending event's payload waits, and whose it is.
  @usableFromInline struct Slot {
    /// The sequence number of the pending event held here; for a free slot, `freeMark` and the
    /// next free slot's index plus one (0 ends the list), so free slots need no list of their own.
    @usableFromInline var stamp: UInt64
    /// The pending event's payload; nil once it fired or was cancelled (releases it).
    @usableFromInline var payload: Payload?

    @inlinable init(stamp: UInt64, payload: Payload?) {
      self.stamp = stamp
      self.payload = payload
    }
  }

  @usableFromInline var slots: [Slot] = []
  /// The most recently freed slot's index plus one; 0 when no slot is free.
  @usableFromInline var freeList = 0
  @usableFromInline var nextSequence: UInt64 = 0
  @usableFromInline var liveCount: Int = 0
  /// Keys of cancelled events still in the heap. While there are none, a pop need not look at
  /// the top key's slot to know it is live (a cache miss on the pop's critical path).
  @usableFromInline var orphanCount: Int = 0

  /// Number of scheduled events not yet fired or cancelled.
  @inlinable public var count: Int { liveCount }

  /// Whether no event is waiting to fire.
  @inlinable public var isEmpty: Bool { liveCount == 0 }

  /// An empty queue.
  @inlinable public init() {}

  /// Schedules `payload` at `time`; events at equal times fire in scheduling order.
  @inlinable @discardableResult
  public mutating func schedule(_ payload: Payload, at time: SimTime) -> EventHandle {
    let sequence = nextSequence
    precondition(sequence < Self.sequenceLimit, "internal inconsistency: more than 2^40 events scheduled")
    nextSequence &+= 1
    let slot: UInt32
    if freeList != 0 {
      let index = freeList &- 1
      slot = UInt32(truncatingIfNeeded: index)
      freeList = Int(truncatingIfNeeded: slots[index].stamp & ~Self.freeMark)
      slots[index] = Slot(stamp: sequence, payload: payload)
    } else {
      precondition(
        UInt64(slots.count) <= Self.slotMask, "internal inconsistency: more than 2^24 pending events")
      slot = UInt32(truncatingIfNeeded: slots.count)
      slots.append(Slot(stamp: sequence, payload: payload))
    }
    liveCount &+= 1
    let key = Key(time: time.nanoseconds, tag: sequence << Self.slotBits | UInt64(slot))
    if holeAtTop {
      holeAtTop = false
      heap.withUnsafeMutableBufferPointer { Self.siftDown(key, from: 0, in: $0) }
    } else {
      heap.append(key)
      siftUp(heap.count &- 1)
    }
    return EventHandle(slot: slot, sequence: sequence)
  }

  /// Cancels a scheduled event. Returns false if it already fired or was cancelled.
  @inlinable @discardableResult
  public mutating func cancel(_ handle: EventHandle) -> Bool {
    guard isLive(handle) else { return false }
    _ = vacate(slot: Int(handle.slot))
    orphanCount &+= 1
    if heap.count > 2 &* liveCount &+ 64 {
      closeHole()
      compact()
    }
    return true
  }

  /// True while the event is still pending.
  @inlinable public func isLive(_ handle: EventHandle) -> Bool {
    Int(handle.slot) < slots.count && slots[Int(handle.slot)].stamp == handle.sequence
  }

  /// The time of the earliest pending event, or nil when none is pending.
  @inlinable public mutating func peekTime() -> SimTime? {
    dropOrphanedTop()
    return heap.first.map { SimTime(nanoseconds: $0.time) }
  }

  /// Removes and returns the earliest pending event.
  @inlinable public mutating func popNext() -> (time: SimTime, payload: Payload)? {
    dropOrphanedTop()
    guard let top = heap.first else { return nil }
    holeAtTop = true
    return (SimTime(nanoseconds: top.time), vacate(slot: top.slot))
  }

  /// Removes the earliest pending event only if it is due at or before `limit`.
  @inlinable public mutating func popNext(notAfter limit: SimTime) -> (time: SimTime, payload: Payload)? {
    dropOrphanedTop()
    guard let top = heap.first, top.time <= limit.nanoseconds else { return nil }
    holeAtTop = true
    return (SimTime(nanoseconds: top.time), vacate(slot: top.slot))
  }

  /// Removes the popped key left at the top, as a plain pop would have.
  @inlinable mutating func closeHole() {
    guard holeAtTop else { return }
    holeAtTop = false
    _ = removeTop()
  }

  /// Marks a live slot empty, frees it for reuse and hands back its payload.
  @inlinable mutating func vacate(slot: Int) -> Payload {
    let payload = slots[slot].payload.unsafelyUnwrapped
    slots[slot] = Slot(stamp: Self.freeMark | UInt64(truncatingIfNeeded: freeList), payload: nil)
    freeList = slot &+ 1
    liveCount &-= 1
    return payload
  }

  @inlinable func isOrphan(_ key: Key) -> Bool {
    slots[key.slot].stamp != key.sequence
  }

  /// Closes the hole, then drops keys of cancelled events until a live one is on top.
  @inlinable mutating func dropOrphanedTop() {
    closeHole()
    guard orphanCount > 0 else { return }
    while let first = heap.first, isOrphan(first) {
      _ = removeTop()
      orphanCount &-= 1
    }
  }

  /// Drops every orphaned key and re-heapifies: O(n), run only after at least n/2 cancels.
  @usableFromInline mutating func compact() {
    let slots = self.slots
    heap.removeAll { slots[$0.slot].stamp != $0.sequence }
    orphanCount = 0
    guard heap.count > 1 else { return }
    heap.withUnsafeMutableBufferPointer { buffer in
      for index in stride(from: (buffer.count &- 2) / 4, through: 0, by: -1) {
        Self.siftDown(buffer[index], from: index, in: buffer)
      }
    }
  }

  @inlinable mutating func removeTop() -> Key {
    let last = heap.removeLast()
    guard !heap.isEmpty else { return last }
    return heap.withUnsafeMutableBufferPointer { buffer in
      let top = buffer[0]
      Self.siftDown(last, from: 0, in: buffer)
      return top
    }
  }

  @inlinable mutating func siftUp(_ start: Int) {
    heap.withUnsafeMutableBufferPointer { buffer in
      let base = buffer.baseAddress.unsafelyUnwrapped
      var child = start
      let item = base[child]
      while child > 0 {
        let parent = (child &- 1) >> 2
        guard item.precedes(base[parent]) else { break }
        base[child] = base[parent]
        child = parent
      }
      base[child] = item
    }
  }

  /// Moves the hole at `start` down to where `item` belongs and stores `item` there.
  ///
  /// Works on raw buffer storage: this loop is most of the hold benchmark's time, and bounds
  /// and uniqueness checks on each access would sit on its critical path. A node with four
  /// children picks the earliest in two rounds of branch-free selects (which of 0 and 1, which
  /// of 2 and 3, then which of those two): which child wins is random, so branches on it would
  /// be mispredicted half of the time.
  @inlinable static func siftDown(_ item: Key, from start: Int, in buffer: UnsafeMutableBufferPointer<Key>) {
    let base = buffer.baseAddress.unsafelyUnwrapped
    let n = buffer.count
    var parent = start
    while true {
      let first = 4 &* parent &+ 1
      var best: Int
      if first &+ 3 < n {
        let left = base[first &+ 1].earlier(than: base[first]) ? first &+ 1 : first
        let right = base[first &+ 3].earlier(than: base[first &+ 2]) ? first &+ 3 : first &+ 2
        best = base[right].earlier(than: base[left]) ? right : left
      } else {
        if first >= n { break }
        best = first
        var c = first &+ 1
        while c < n {
          if base[c].precedes(base[best]) { best = c }
          c &+= 1
        }
      }
      guard base[best].precedes(item) else { break }
      base[parent] = base[best]
      parent = best
    }
    base[parent] = item
  }
}

extension EventQueue.Key {
  /// `precedes`, computed without short-circuit branches so the compiler can use selects.
  @inlinable func earlier(than other: Self) -> Bool {
    let sooner = time < other.time
    let same = time == other.time
    let firstScheduled = tag < other.tag
    return sooner || (same && firstScheduled)
  }
}

extension EventQueue: Sendable where Payload: Sendable {}
extension EventQueue.Slot: Sendable where Payload: Sendable {}
