import SimKernel

/// What the last admission passes learnt about the front of one wait queue (`WaitQueue.run`):
/// its first `length` waiting tasks are filed, each either known blocked or to be visited again.
///
/// A task is known blocked when a pass found it blocked for a reason that lasts until
/// admission's inputs change (`WaitReason.lastsUntilInputsChange`) or until an instant (a start
/// date, the rate limiter's expiry: `Admission.timedBlockEnd`). While the groups of inputs those
/// reasons read (`reads`, `WaitReason.inputGroups`) are as numbered `epochs`
/// (`Engine.admissionEpochs`), a pass decides again only the known-blocked tasks whose instant
/// came (`takeRevisits`) and those filed to be visited (blocked for a shorter reason: the
/// connection limit, a delayed request's answer), in queue order, then the tasks behind the
/// filed ones. It would decide the same for every other task and do nothing but ask for a
/// re-evaluation at the earliest instant among them (`earliestEnd`).
///
/// Each filed task's row holds its key (`TaskParts.runKey`): keys grow in queue order, so the
/// tasks a pass visits again are put in queue order by their keys, and an even key marks a
/// known-blocked task, an odd one a task to visit. A task no longer filed has key 0, and the
/// lists here drop an entry whose row's key changed when they meet it. The keys of different
/// queues differ in their high bits (`keySpace`), since a task may wait in another queue later.
///
/// Without this, a long queue of tasks waiting for Wi-Fi, power or a start date ahead of tasks
/// that may start was walked at every start and every finish (quadratic in the queue), and a
/// queue of tasks with N different start dates was walked at each of them.
struct KnownBlockedRun {
  typealias Row = UnsafeMutablePointer<TaskParts>

  /// A filed task, as the lists here keep it.
  struct Entry {
    let key: UInt64
    let row: Row
  }

  /// A known-blocked task's end (`Admission.timedBlockEnd`), in `ends`.
  private struct End {
    let at: SimTime
    let key: UInt64
    let row: Row

    /// The heap's order: the earliest end first, then queue order.
    func precedes(_ other: End) -> Bool { at != other.at ? at < other.at : key < other.key }
  }

  /// The first `length` waiting tasks are filed (the rest were not decided since the run began).
  var length = 0
  /// How many of them are known blocked, and how many are to be visited again.
  private(set) var blockedCount = 0
  private(set) var toVisitCount = 0
  /// Admission's inputs as numbered when the known-blocked tasks were decided, and the groups
  /// their reasons read.
  var epochs = AdmissionEpochs()
  var reads: AdmissionInputGroups = []
  /// The known-blocked tasks that end at an instant: a binary min-heap whose first entry is
  /// always current (`dropStaleEnds`).
  private var ends: [End] = []
  /// The tasks to visit again, the first in queue order last (a pass takes them from the end);
  /// entries of tasks filed otherwise since are stale.
  private var toVisit: [Entry] = []
  /// During a pass (`nextRevisit`): the known-blocked tasks whose end came, in queue order, from
  /// `nextDue` on; and the tasks the pass filed to visit, in queue order.
  private var due: [End] = []
  private var nextDue = 0
  private var filedToVisit: [Entry] = []
  /// The queue's keys share these high bits.
  private let keySpace: UInt64
  /// The next key's number in the queue's space, counting up by one per newly filed task.
  private var nextNumber: UInt32 = 1

  init(queue index: Int32 = 0) { keySpace = UInt64(UInt32(bitPattern: index)) << 33 }

  /// Entries kept in the lists, current or stale (for tests: stale ones do not pile up).
  var storedEntries: Int { ends.count + toVisit.count }

  /// The earliest instant that ends one of the known blocks (nil: none ends by itself).
  var earliestEnd: SimTime? { ends.first?.at }

  /// Whether the known-blocked tasks still stand with admission's inputs numbered `epochs` (the
  /// time aside: each ends at its own instant).
  func stands(in epochs: AdmissionEpochs) -> Bool {
    blockedCount > 0 && self.epochs.agree(with: epochs, on: reads)
  }

  /// Whether `count` more tasks can be filed before the keys run out; when not, the caller
  /// forgets the run (`WaitQueue.forgetRun`), which lets the numbers start again.
  func hasKeys(for count: Int) -> Bool { Int(UInt32.max - nextNumber) > count }

  /// Files `row` as known blocked, until `end` when its block ends at an instant. `key` is the
  /// key it was filed with (a task visited again keeps its place), nil for a task newly filed
  /// behind the others.
  mutating func fileBlocked(_ row: Row, key: UInt64?, until end: SimTime?) {
    let key = file(row, key: key, toVisit: false)
    guard let end else { return }
    ends.append(End(at: end, key: key, row: row))
    siftUp(ends.count - 1)
  }

  /// Files `row` to be visited again by the next pass; called in queue order during a pass
  /// (`nextRevisit`), which puts them back in place at its end (`endRevisits`).
  mutating func fileToVisit(_ row: Row, key: UInt64?) {
    filedToVisit.append(Entry(key: file(row, key: key, toVisit: true), row: row))
  }

  private mutating func file(_ row: Row, key: UInt64?, toVisit visit: Bool) -> UInt64 {
    let base: UInt64
    if let key {
      base = key & ~1
    } else {
      base = keySpace | UInt64(nextNumber) << 1
      nextNumber += 1
    }
    unfile(row)
    if visit { toVisitCount += 1 } else { blockedCount += 1 }
    let filed = visit ? base | 1 : base
    row.pointee.runKey = filed
    return filed
  }

  /// `row` is no longer filed (it left the queue, or the run was cut before it); its entries
  /// here go stale. The caller then calls `dropStaleEnds`.
  mutating func unfile(_ row: Row) {
    let key = row.pointee.runKey
    guard key != 0 else { return }
    if key & 1 == 1 { toVisitCount -= 1 } else { blockedCount -= 1 }
    row.pointee.runKey = 0
  }

  /// Starts a pass at `now`: takes the known-blocked tasks whose end came, for `nextRevisit`.
  /// Returns how many there are.
  mutating func beginRevisits(at now: SimTime) -> Int {
    due.removeAll(keepingCapacity: true)
    nextDue = 0
    while let first = ends.first, first.at <= now {
      removeFirstEnd()
      if first.row.pointee.runKey == first.key { due.append(first) }
    }
    dropStaleEnds()
    due.sort { $0.key < $1.key }
    return due.count
  }

  /// The next task the pass must decide again, in queue order: a known-blocked one whose end
  /// came, or one filed to visit. It stays filed until the pass files it again (or it leaves the
  /// queue). Nil when none is left: the pass goes on behind the filed tasks.
  mutating func nextRevisit() -> Entry? {
    while let last = toVisit.last, last.row.pointee.runKey != last.key { toVisit.removeLast() }
    let dueNext = nextDue < due.count ? due[nextDue] : nil
    if let visit = toVisit.last, dueNext == nil || visit.key < dueNext!.key {
      toVisit.removeLast()
      return visit
    }
    guard let dueNext else { return nil }
    nextDue += 1
    return Entry(key: dueNext.key, row: dueNext.row)
  }

  /// Ends a pass: the known-blocked tasks whose end came that it did not reach wait for the next
  /// pass in `ends`; those it filed to visit (all visited again, so ahead of every task it did not
  /// reach) go on top of the others. Entries of tasks that left are dropped once they are the
  /// greater part of a list, so a queue whose tasks are cancelled from the middle does not keep
  /// them.
  mutating func endRevisits() {
    if !due.isEmpty {
      for entry in due[nextDue...] where entry.row.pointee.runKey == entry.key {
        ends.append(entry)
        siftUp(ends.count - 1)
      }
      due.removeAll(keepingCapacity: true)
      nextDue = 0
    }
    if !filedToVisit.isEmpty {
      toVisit.append(contentsOf: filedToVisit.reversed())
      filedToVisit.removeAll(keepingCapacity: true)
    }
    if toVisit.count > 32 + 2 * toVisitCount {
      toVisit.removeAll { $0.row.pointee.runKey != $0.key }
    }
    if ends.count > 32 + 2 * blockedCount {
      ends.removeAll { $0.row.pointee.runKey != $0.key }
      // Any order is a heap once each entry is sifted up in turn.
      for i in ends.indices { siftUp(i) }
    }
  }

  /// Forgets everything filed; the caller has unfiled every filed row.
  mutating func reset(restartingKeys: Bool) {
    precondition(blockedCount == 0 && toVisitCount == 0, "internal inconsistency: a filed task was left")
    length = 0
    ends.removeAll(keepingCapacity: true)
    toVisit.removeAll(keepingCapacity: true)
    due.removeAll(keepingCapacity: true)
    nextDue = 0
    filedToVisit.removeAll(keepingCapacity: true)
    if restartingKeys { nextNumber = 1 }
  }

  /// Drops the first ends whose tasks are no longer filed with them, so that `earliestEnd` is
  /// exact.
  mutating func dropStaleEnds() {
    while let first = ends.first, first.row.pointee.runKey != first.key { removeFirstEnd() }
  }

  private mutating func removeFirstEnd() {
    let last = ends.removeLast()
    guard !ends.isEmpty else { return }
    ends[0] = last
    var i = 0
    while true {
      let left = 2 * i + 1
      guard left < ends.count else { return }
      let right = left + 1
      let child = right < ends.count && ends[right].precedes(ends[left]) ? right : left
      guard ends[child].precedes(ends[i]) else { return }
      ends.swapAt(i, child)
      i = child
    }
  }

  private mutating func siftUp(_ start: Int) {
    var i = start
    while i > 0 {
      let parent = (i - 1) / 2
      guard ends[i].precedes(ends[parent]) else { return }
      ends.swapAt(i, parent)
      i = parent
    }
  }
}
