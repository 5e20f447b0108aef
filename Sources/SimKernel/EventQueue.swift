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
  /// Marks a slot with no pending event; no real sequence number reaches it.
  @usableFromInline static var vacant: UInt64 { .max }

  @usableFromInline var heap: [Key] = []
  /// Per slot, the sequence number of the pending event it holds, or `vacant`.
  @usableFromInline var occupant: [UInt64] = []
  /// Per slot, the payload of the pending event; nil once fired or cancelled (releases it).
  @usableFromInline var payloads: [Payload?] = []
  @usableFromInline var freeSlots: [UInt32] = []
  @usableFromInline var nextSequence: UInt64 = 0
  @usableFromInline var liveCount: Int = 0

  /// Number of scheduled events not yet fired or cancelled.
  @inlinable public var count: Int { liveCount }

  @inlinable public var isEmpty: Bool { liveCount == 0 }

  @inlinable public init() {}

  /// Schedules `payload` at `time`; events at equal times fire in scheduling order.
  @inlinable @discardableResult
  public mutating func schedule(_ payload: Payload, at time: SimTime) -> EventHandle {
    let slot: UInt32
    if let free = freeSlots.popLast() {
      slot = free
      payloads[Int(slot)] = payload
    } else {
      precondition(
        UInt64(occupant.count) <= Self.slotMask, "internal inconsistency: more than 2^24 pending events")
      slot = UInt32(truncatingIfNeeded: occupant.count)
      occupant.append(Self.vacant)
      payloads.append(payload)
    }
    let sequence = nextSequence
    precondition(sequence < Self.sequenceLimit, "internal inconsistency: more than 2^40 events scheduled")
    nextSequence &+= 1
    occupant[Int(slot)] = sequence
    liveCount &+= 1
    heap.append(Key(time: time.nanoseconds, tag: sequence << Self.slotBits | UInt64(slot)))
    siftUp(heap.count &- 1)
    return EventHandle(slot: slot, sequence: sequence)
  }

  /// Cancels a scheduled event. Returns false if it already fired or was cancelled.
  @inlinable @discardableResult
  public mutating func cancel(_ handle: EventHandle) -> Bool {
    guard isLive(handle) else { return false }
    _ = vacate(slot: Int(handle.slot))
    if heap.count > 2 &* liveCount &+ 64 { compact() }
    return true
  }

  /// True while the event is still pending.
  @inlinable public func isLive(_ handle: EventHandle) -> Bool {
    Int(handle.slot) < occupant.count && occupant[Int(handle.slot)] == handle.sequence
  }

  /// The time of the earliest pending event, or nil when none is pending.
  @inlinable public mutating func peekTime() -> SimTime? {
    dropOrphanedTop()
    return heap.first.map { SimTime(nanoseconds: $0.time) }
  }

  /// Removes and returns the earliest pending event.
  @inlinable public mutating func popNext() -> (time: SimTime, payload: Payload)? {
    dropOrphanedTop()
    guard !heap.isEmpty else { return nil }
    let top = removeTop()
    return (SimTime(nanoseconds: top.time), vacate(slot: top.slot))
  }

  /// Removes the earliest pending event only if it is due at or before `limit`.
  @inlinable public mutating func popNext(notAfter limit: SimTime) -> (time: SimTime, payload: Payload)? {
    dropOrphanedTop()
    guard let first = heap.first, first.time <= limit.nanoseconds else { return nil }
    let top = removeTop()
    return (SimTime(nanoseconds: top.time), vacate(slot: top.slot))
  }

  /// Marks a live slot empty, frees it for reuse and hands back its payload.
  @inlinable mutating func vacate(slot: Int) -> Payload {
    occupant[slot] = Self.vacant
    let payload = payloads[slot].unsafelyUnwrapped
    payloads[slot] = nil
    freeSlots.append(UInt32(truncatingIfNeeded: slot))
    liveCount &-= 1
    return payload
  }

  @inlinable func isOrphan(_ key: Key) -> Bool {
    occupant[key.slot] != key.sequence
  }

  @inlinable mutating func dropOrphanedTop() {
    while let first = heap.first, isOrphan(first) {
      _ = removeTop()
    }
  }

  /// Drops every orphaned key and re-heapifies: O(n), run only after at least n/2 cancels.
  @usableFromInline mutating func compact() {
    let occupant = self.occupant
    heap.removeAll { occupant[$0.slot] != $0.sequence }
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
  /// and uniqueness checks on each access would sit on its critical path.
  @inlinable static func siftDown(_ item: Key, from start: Int, in buffer: UnsafeMutableBufferPointer<Key>) {
    let base = buffer.baseAddress.unsafelyUnwrapped
    let n = buffer.count
    var parent = start
    while true {
      let first = 4 &* parent &+ 1
      if first >= n { break }
      var best = first
      let end = Swift.min(first &+ 4, n)
      var c = first &+ 1
      while c < end {
        if base[c].precedes(base[best]) { best = c }
        c &+= 1
      }
      guard base[best].precedes(item) else { break }
      base[parent] = base[best]
      parent = best
    }
    base[parent] = item
  }
}

extension EventQueue: Sendable where Payload: Sendable {}
