import SimKernel
import Testing

/// The obviously-correct reference: a sorted array of pending events, searched linearly.
private struct ReferenceQueue {
  struct Pending {
    var time: Int64
    var sequence: Int
    var id: Int
  }
  var pending: [Pending] = []
  var nextSequence = 0

  mutating func schedule(id: Int, at time: Int64) {
    let entry = Pending(time: time, sequence: nextSequence, id: id)
    nextSequence += 1
    let index =
      pending.firstIndex { ($0.time, $0.sequence) > (entry.time, entry.sequence) } ?? pending.endIndex
    pending.insert(entry, at: index)
  }

  mutating func cancel(id: Int) -> Bool {
    guard let index = pending.firstIndex(where: { $0.id == id }) else { return false }
    pending.remove(at: index)
    return true
  }

  mutating func popNext(notAfter limit: Int64) -> (Int64, Int)? {
    guard let first = pending.first, first.time <= limit else { return nil }
    pending.removeFirst()
    return (first.time, first.id)
  }
}

/// Records a failed expectation and says whether it held, so a model run stops at the first
/// divergence instead of reporting every later step.
private func agree(
  _ holds: Bool, _ what: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation
)
  -> Bool
{
  if !holds { Issue.record(Comment(rawValue: what()), sourceLocation: sourceLocation) }
  return holds
}

@Suite("EventQueue against a reference model")
struct EventQueueModelTests {
  /// 100,000 seeded random operations, each checked against `ReferenceQueue` as it happens.
  ///
  /// Times come from a narrow window so equal times are common; a third of the cancels use
  /// handles that already fired or were cancelled (so their slots have been reused), and the
  /// mix swings between filling and draining phases so the heap grows, shrinks and compacts.
  @Test(
    "100,000 random schedule/cancel/pop operations match a sorted-array model", arguments: [UInt64(7), 2024])
  func randomOperations(seed: UInt64) {
    var random = SeededGenerator(seed: seed)
    var queue = EventQueue<Int>()
    var model = ReferenceQueue()
    var live: [(id: Int, handle: EventHandle)] = []
    var dead: [EventHandle] = []
    var nextID = 0
    var floor: Int64 = 0

    for step in 0..<100_000 {
      // Phases of 5,000 steps: filling (more schedules) alternates with draining.
      let filling = (step / 5_000) % 2 == 0
      let roll = random.uniform(0...99)
      if roll < (filling ? 55 : 25) {
        let time = floor + Int64(random.uniform(0...40))
        let handle = queue.schedule(nextID, at: SimTime(nanoseconds: time))
        model.schedule(id: nextID, at: time)
        live.append((nextID, handle))
        nextID += 1
      } else if roll < (filling ? 75 : 55) {
        if !dead.isEmpty && random.uniform(0...2) == 0 {
          let handle = dead[random.uniform(0...(dead.count - 1))]
          let cancelledDead = queue.cancel(handle)
          guard agree(!cancelledDead, "step \(step): a dead handle cancelled something") else { return }
        } else if !live.isEmpty {
          let index = random.uniform(0...(live.count - 1))
          let (id, handle) = live.remove(at: index)
          let cancelledLive = queue.cancel(handle)
          guard agree(cancelledLive, "step \(step): cancel of a live event failed") else { return }
          let modelCancelled = model.cancel(id: id)
          #expect(modelCancelled)
          dead.append(handle)
        }
      } else {
        let limit = random.uniform(0...3) == 0 ? Int64.max : floor + Int64(random.uniform(0...20))
        let got = queue.popNext(notAfter: SimTime(nanoseconds: limit))
        let want = model.popNext(notAfter: limit)
        guard agree(got?.time.nanoseconds == want?.0, "step \(step): popped time differs"),
          agree(got?.payload == want?.1, "step \(step): popped event differs")
        else { return }
        if let (time, id) = want {
          floor = time
          if let index = live.firstIndex(where: { $0.id == id }) {
            dead.append(live.remove(at: index).handle)
          }
        }
      }
      guard agree(queue.count == model.pending.count, "step \(step): count differs") else { return }
      if step % 97 == 0 {
        let peeked = queue.peekTime()
        guard agree(peeked?.nanoseconds == model.pending.first?.time, "step \(step): peek differs") else {
          return
        }
      }
      if dead.count > 2_000 { dead.removeFirst(1_000) }
    }

    let rest = drain(&queue)
    #expect(rest.map(\.0) == model.pending.map(\.time))
    #expect(rest.map(\.1) == model.pending.map(\.id))
  }
}
