/// A handle to a scheduled event, for cancelling it without searching the queue.
///
/// It names a slot and the slot's generation at scheduling time; cancelling bumps the
/// generation, so the stale heap entry is recognised and dropped when it surfaces.
public struct EventHandle: Hashable, Sendable {
  @usableFromInline let slot: UInt32
  @usableFromInline let generation: UInt32
  @inlinable init(slot: UInt32, generation: UInt32) {
    self.slot = slot
    self.generation = generation
  }
}

/// The simulation's pending events, ordered by time and then by the order they were scheduled.
///
/// A 4-ary min-heap of plain value entries. Events scheduled for the same instant come out in
/// insertion order (a monotonically increasing sequence number breaks ties), which is what makes
/// runs deterministic. Cancellation is O(1): it invalidates the handle's slot and the entry is
/// discarded lazily when it reaches the top.
///
/// - Complexity: `schedule` and `popNext` are O(log n); `cancel` and `peekTime` are O(1)
///   amortised.
public struct EventQueue<Payload> {
  @usableFromInline struct Entry {
    @usableFromInline var time: Int64
    @usableFromInline var sequence: UInt64
    @usableFromInline var slot: UInt32
    @usableFromInline var generation: UInt32
    @usableFromInline var payload: Payload

    @inlinable init(time: Int64, sequence: UInt64, slot: UInt32, generation: UInt32, payload: Payload) {
      self.time = time
      self.sequence = sequence
      self.slot = slot
      self.generation = generation
      self.payload = payload
    }

    @inlinable func precedes(_ other: Entry) -> Bool {
      time < other.time || (time == other.time && sequence < other.sequence)
    }
  }

  @usableFromInline var heap: [Entry] = []
  /// Current generation per slot; an entry is live while its generation matches.
  @usableFromInline var generations: [UInt32] = []
  @usableFromInline var freeSlots: [UInt32] = []
  @usableFromInline var nextSequence: UInt64 = 0
  @usableFromInline var liveCount: Int = 0
  /// Number of scheduled events not yet fired or cancelled.
  @inlinable public var count: Int { liveCount }

  @inlinable public init() {}

  @inlinable public var isEmpty: Bool { count == 0 }

  /// Schedules `payload` at `time`; events at equal times fire in scheduling order.
  @inlinable @discardableResult
  public mutating func schedule(_ payload: Payload, at time: SimTime) -> EventHandle {
    let slot: UInt32
    if let free = freeSlots.popLast() {
      slot = free
    } else {
      slot = UInt32(generations.count)
      generations.append(0)
    }
    let generation = generations[Int(slot)]
    heap.append(
      Entry(time: time.nanoseconds, sequence: nextSequence, slot: slot, generation: generation, payload: payload))
    nextSequence &+= 1
    liveCount += 1
    siftUp(heap.count - 1)
    return EventHandle(slot: slot, generation: generation)
  }

  /// Cancels a scheduled event. Returns false if it already fired or was cancelled.
  @inlinable @discardableResult
  public mutating func cancel(_ handle: EventHandle) -> Bool {
    guard isLive(handle) else { return false }
    retire(slot: handle.slot)
    liveCount -= 1
    return true
  }

  /// True while the event is still pending.
  @inlinable public func isLive(_ handle: EventHandle) -> Bool {
    Int(handle.slot) < generations.count && generations[Int(handle.slot)] == handle.generation
  }

  /// The time of the earliest pending event, or nil when none is pending.
  @inlinable public mutating func peekTime() -> SimTime? {
    dropStaleTop()
    return heap.first.map { SimTime(nanoseconds: $0.time) }
  }

  /// Removes and returns the earliest pending event.
  @inlinable public mutating func popNext() -> (time: SimTime, payload: Payload)? {
    dropStaleTop()
    guard !heap.isEmpty else { return nil }
    let top = removeTop()
    retire(slot: top.slot)
    liveCount -= 1
    return (SimTime(nanoseconds: top.time), top.payload)
  }

  /// Removes the earliest pending event only if it is due at or before `limit`.
  @inlinable public mutating func popNext(notAfter limit: SimTime) -> (time: SimTime, payload: Payload)? {
    dropStaleTop()
    guard let first = heap.first, first.time <= limit.nanoseconds else { return nil }
    return popNext()
  }

  @inlinable mutating func retire(slot: UInt32) {
    generations[Int(slot)] &+= 1
    freeSlots.append(slot)
  }

  @inlinable mutating func dropStaleTop() {
    while let first = heap.first, generations[Int(first.slot)] != first.generation {
      _ = removeTop()
    }
  }

  @inlinable mutating func removeTop() -> Entry {
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
  /// Works on raw buffer storage: with bounds and uniqueness checks on every access this loop
  /// was over half of the hold benchmark's time.
  @inlinable static func siftDown(_ item: Entry, from start: Int, in buffer: UnsafeMutableBufferPointer<Entry>) {
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
extension EventQueue.Entry: Sendable where Payload: Sendable {}
