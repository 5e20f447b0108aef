import SimKernel
import Testing

/// Pops everything left in `queue`, in order, as (nanoseconds, payload) pairs.
func drain<P>(_ queue: inout EventQueue<P>) -> [(Int64, P)] {
  var out: [(Int64, P)] = []
  while let (time, payload) = queue.popNext() { out.append((time.nanoseconds, payload)) }
  return out
}

@Suite("EventQueue")
struct EventQueueTests {
  @Test("events at the same instant come out in the order they were scheduled")
  func equalTimesKeepInsertionOrder() {
    var queue = EventQueue<String>()
    queue.schedule("b1", at: SimTime(nanoseconds: 20))
    queue.schedule("a1", at: SimTime(nanoseconds: 10))
    queue.schedule("b2", at: SimTime(nanoseconds: 20))
    queue.schedule("a2", at: SimTime(nanoseconds: 10))
    queue.schedule("b3", at: SimTime(nanoseconds: 20))
    queue.schedule("a3", at: SimTime(nanoseconds: 10))
    #expect(drain(&queue).map(\.1) == ["a1", "a2", "a3", "b1", "b2", "b3"])
  }

  @Test("a thousand events at one instant keep their order through the heap's reshuffles")
  func manyEqualTimes() {
    var queue = EventQueue<Int>()
    for i in 0..<1_000 {
      queue.schedule(i, at: SimTime(nanoseconds: i % 2 == 0 ? 5 : 7))
    }
    let order = drain(&queue).map(\.1)
    #expect(order == Array(stride(from: 0, to: 1_000, by: 2)) + Array(stride(from: 1, to: 1_000, by: 2)))
  }

  @Test("an empty queue has nothing to peek or pop")
  func emptyQueue() {
    var queue = EventQueue<Int>()
    #expect(queue.isEmpty)
    #expect(queue.count == 0)
    let peeked = queue.peekTime()
    let popped = queue.popNext()
    let poppedByLimit = queue.popNext(notAfter: .distantFuture)
    #expect(peeked == nil)
    #expect(popped == nil)
    #expect(poppedByLimit == nil)
  }

  @Test("cancel succeeds once, then returns false; the cancelled event never pops")
  func cancelTwice() {
    var queue = EventQueue<String>()
    queue.schedule("keep", at: SimTime(nanoseconds: 2))
    let handle = queue.schedule("drop", at: SimTime(nanoseconds: 1))
    #expect(queue.count == 2)
    #expect(queue.isLive(handle))
    let cancelled = queue.cancel(handle)
    #expect(cancelled)
    #expect(!queue.isLive(handle))
    #expect(queue.count == 1)
    let cancelledAgain = queue.cancel(handle)
    #expect(!cancelledAgain)
    #expect(queue.count == 1)
    let peeked = queue.peekTime()
    #expect(peeked == SimTime(nanoseconds: 2))
    #expect(drain(&queue).map(\.1) == ["keep"])
    #expect(queue.isEmpty)
  }

  @Test("cancelling an event that already fired returns false and changes nothing")
  func cancelAfterFiring() {
    var queue = EventQueue<String>()
    let fired = queue.schedule("first", at: SimTime(nanoseconds: 1))
    queue.schedule("second", at: SimTime(nanoseconds: 2))
    let first = queue.popNext()
    #expect(first?.payload == "first")
    #expect(!queue.isLive(fired))
    let cancelledAfterFiring = queue.cancel(fired)
    #expect(!cancelledAfterFiring)
    #expect(queue.count == 1)
    let second = queue.popNext()
    #expect(second?.payload == "second")
  }

  @Test("a stale handle does not cancel the event that reused its slot")
  func handleReuseAfterSlotRecycling() {
    var queue = EventQueue<String>()
    let old = queue.schedule("old", at: SimTime(nanoseconds: 1))
    let cancelledOld = queue.cancel(old)
    #expect(cancelledOld)
    // The freed slot is the only one, so the next event must reuse it.
    let new = queue.schedule("new", at: SimTime(nanoseconds: 1))
    #expect(new != old)
    let staleCancelled = queue.cancel(old)
    #expect(!staleCancelled)
    #expect(queue.isLive(new))
    #expect(queue.count == 1)

    let fired = queue.popNext()
    #expect(fired?.payload == "new")
    // And once more after firing rather than cancelling.
    let third = queue.schedule("third", at: SimTime(nanoseconds: 3))
    let firedCancelled = queue.cancel(new)
    #expect(!firedCancelled)
    #expect(!queue.isLive(old))
    let thirdFired = queue.popNext()
    #expect(thirdFired?.payload == "third")
    #expect(!queue.isLive(third))
  }

  @Test(
    "popNext(notAfter:) takes only events due at or before the limit",
    arguments: [
      (limit: Int64(9), expected: [String]()),
      (limit: 10, expected: ["at10"]),
      (limit: 19, expected: ["at10"]),
      (limit: 20, expected: ["at10", "at20a", "at20b"]),
      (limit: Int64.max, expected: ["at10", "at20a", "at20b", "at30"]),
    ] as [(limit: Int64, expected: [String])])
  func popNotAfter(limit: Int64, expected: [String]) {
    var queue = EventQueue<String>()
    queue.schedule("at30", at: SimTime(nanoseconds: 30))
    queue.schedule("at20a", at: SimTime(nanoseconds: 20))
    queue.schedule("at10", at: SimTime(nanoseconds: 10))
    queue.schedule("at20b", at: SimTime(nanoseconds: 20))
    var popped: [String] = []
    while let (time, payload) = queue.popNext(notAfter: SimTime(nanoseconds: limit)) {
      #expect(time.nanoseconds <= limit)
      popped.append(payload)
    }
    #expect(popped == expected)
    #expect(queue.count == 4 - expected.count)
  }

  @Test("popNext(notAfter:) looks past a cancelled earlier event to the live one behind it")
  func popNotAfterSkipsCancelled() {
    var queue = EventQueue<String>()
    let early = queue.schedule("early", at: SimTime(nanoseconds: 5))
    queue.schedule("late", at: SimTime(nanoseconds: 50))
    queue.cancel(early)
    let tooEarly = queue.popNext(notAfter: SimTime(nanoseconds: 10))
    let peeked = queue.peekTime()
    let late = queue.popNext(notAfter: SimTime(nanoseconds: 50))
    #expect(tooEarly == nil)
    #expect(peeked == SimTime(nanoseconds: 50))
    #expect(late?.payload == "late")
  }

  @Test("cancelling most of a large queue keeps the survivors in order")
  func massCancellation() {
    var queue = EventQueue<Int>()
    var handles: [EventHandle] = []
    for i in 0..<5_000 {
      handles.append(queue.schedule(i, at: SimTime(nanoseconds: Int64((i * 7_919) % 5_000))))
    }
    for (i, handle) in handles.enumerated() where i % 10 != 0 {
      let cancelled = queue.cancel(handle)
      #expect(cancelled)
    }
    #expect(queue.count == 500)
    let survivors = drain(&queue)
    #expect(survivors.count == 500)
    #expect(survivors.allSatisfy { $0.1 % 10 == 0 })
    #expect(zip(survivors, survivors.dropFirst()).allSatisfy { $0.0 <= $1.0 })
  }

  @Test("payloads are released once their event fires or is cancelled")
  func payloadsAreReleased() {
    final class Token {}
    var queue = EventQueue<Token>()
    weak var fired: Token?
    weak var cancelled: Token?
    do {
      let a = Token()
      let b = Token()
      fired = a
      cancelled = b
      queue.schedule(a, at: SimTime(nanoseconds: 1))
      let handle = queue.schedule(b, at: SimTime(nanoseconds: 2))
      queue.cancel(handle)
      _ = queue.popNext()
    }
    #expect(fired == nil)
    #expect(cancelled == nil)
  }
}
