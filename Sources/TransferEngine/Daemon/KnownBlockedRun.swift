import SimKernel

/// What the last admission passes learnt about the front of one wait queue (`WaitQueue.run`):
/// its first `length` waiting tasks are filed, each either known blocked or to be visited again.
///
/// A task is known blocked when a pass found it blocked for a reason that lasts until
/// admission's inputs change (`WaitReason.lastsUntilInputsChange`) or until an instant (a start
/// date, the rate limiter's expiry: `Admission.timedBlockEnd`). While the groups of inputs those
/// reasons read (`reads`, `WaitReason.inputGroups`) are as numbered `epochs`
/// (`Engine.admissionEpochs`), a pass decides again only the known-blocked tasks whose instant
/// came and those filed to be visited (`nextRevisit`), in queue order, then the tasks behind the
/// filed ones. It would decide the same for every other task and do nothing but ask for a
/// re-evaluation at the earliest instant among them (`earliestEnd`). A task filed to be visited
/// is one whose instant came and that then waited for a shorter reason: a connection
/// (`slotHoles`, which a full pass may leave alone: `slotHolesStand`) or a delayed request's
/// answer. Behind the filed ones, a pass files tasks only while they are known blocked.
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

  /// A filed task, as the lists here keep it; in queue order by key.
  struct Entry: HeapOrdered {
    let key: UInt64
    let row: Row

    func precedes(_ other: Entry) -> Bool { key < other.key }
  }

  /// A known-blocked task's end (`Admission.timedBlockEnd`), in `ends`.
  private struct End: HeapOrdered {
    let at: SimTime
    let key: UInt64
    let row: Row

    /// The earliest end first, then queue order.
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
  /// The known-blocked tasks that end at an instant, earliest first; the first entry is always
  /// current (`dropStaleEnds`).
  private var ends = MinHeap<End>()
  /// The tasks to visit again that the connection limit held (`slotHoles`) and the others
  /// (`toVisit`), each in queue order; entries of tasks filed otherwise since are stale.
  private var toVisit = MinHeap<Entry>()
  private var slotHoles = MinHeap<Entry>()
  /// Whether every task in `slotHoles` was decided with admission's inputs numbered
  /// `slotEpochs`, under a connection limit no higher than `slotLimit`: then, while the inputs
  /// are the same and the queue holds that many connections, each would be held again
  /// (`slotHolesStand`).
  private var slotHolesKnown = false
  private var slotEpochs = AdmissionEpochs()
  private var slotLimit = 0
  /// During a pass (`nextRevisit`): the known-blocked tasks whose end came, in queue order, from
  /// `nextDue` on; whether it leaves the tasks the connection limit held alone; the tasks it
  /// filed to visit (with whether the connection limit held them, and its value), put in place
  /// at its end; and how many tasks it was given.
  private var due: [End] = []
  private var nextDue = 0
  private var skipsSlotHoles = false
  private var filedToVisit: [(entry: Entry, slotLimit: Int?)] = []
  private var revisits = 0
  /// How many filed tasks the last pass decided again (for tests: a pass visits only those).
  private(set) var revisitedInLastPass = 0
  /// The queue's keys share these high bits.
  private let keySpace: UInt64
  /// The next key's number in the queue's space, counting up by one per newly filed task.
  private var nextNumber: UInt32 = 1

  init(queue index: Int32 = 0) { keySpace = UInt64(UInt32(bitPattern: index)) << 33 }

  /// Entries kept in the lists, current or stale (for tests: stale ones do not pile up).
  var storedEntries: Int { ends.count + toVisit.count + slotHoles.count }

  /// The earliest instant that ends one of the known blocks (nil: none ends by itself).
  var earliestEnd: SimTime? { ends.first?.at }

  /// Whether the known-blocked tasks still stand with admission's inputs numbered `epochs` (the
  /// time aside: each ends at its own instant).
  func stands(in epochs: AdmissionEpochs) -> Bool {
    blockedCount > 0 && self.epochs.agree(with: epochs, on: reads)
  }

  /// Whether every task the connection limit held would be held again by a pass with
  /// admission's inputs numbered `epochs`, while the queue holds `running` connections and the
  /// limit is raised by `slack`: no input changed since they were decided (the time aside: the
  /// blocks before the limit that a task passed, a start date or the rate limiter's delay, stay
  /// passed), and no connection is free. Nothing the pass does frees one.
  func slotHolesStand(in epochs: AdmissionEpochs, running: Int, slack: Int) -> Bool {
    !slotHoles.isEmpty && slotHolesKnown && running >= slotLimit + slack
      && slotEpochs.agree(with: epochs, on: .all)
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
    ends.push(End(at: end, key: key, row: row))
  }

  /// Files `row` to be visited again by the next pass, during a pass (`nextRevisit`), which
  /// puts it in place at its end (`endRevisits`). `slotLimit` is the connection limit that held
  /// it, nil for any other reason.
  mutating func fileToVisit(_ row: Row, key: UInt64?, slotLimit: Int? = nil) {
    filedToVisit.append((Entry(key: file(row, key: key, toVisit: true), row: row), slotLimit))
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

  /// Starts a pass at `now`: takes the known-blocked tasks whose end came, for `nextRevisit`,
  /// which also gives the tasks to visit again, but not those the connection limit held when
  /// `skippingSlotHoles` (`slotHolesStand`). Returns how many ends came.
  mutating func beginRevisits(at now: SimTime, skippingSlotHoles: Bool = false) -> Int {
    due.removeAll(keepingCapacity: true)
    nextDue = 0
    revisits = 0
    skipsSlotHoles = skippingSlotHoles
    while let first = ends.first, first.at <= now {
      ends.removeFirst()
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
    while let first = toVisit.first, first.row.pointee.runKey != first.key { toVisit.removeFirst() }
    while let first = slotHoles.first, first.row.pointee.runKey != first.key { slotHoles.removeFirst() }
    var next = nextDue < due.count ? Entry(key: due[nextDue].key, row: due[nextDue].row) : nil
    var from = 0
    if let visit = toVisit.first, next == nil || visit.key < next!.key {
      next = visit
      from = 1
    }
    if !skipsSlotHoles, let hole = slotHoles.first, next == nil || hole.key < next!.key {
      next = hole
      from = 2
    }
    switch from {
    case 0: if next != nil { nextDue += 1 }
    case 1: toVisit.removeFirst()
    default: slotHoles.removeFirst()
    }
    if next != nil { revisits += 1 }
    return next
  }

  /// Ends a pass, with admission's inputs numbered `epochs`: the known-blocked tasks whose end
  /// came that it did not reach wait for the next pass in `ends`, and those it filed to visit
  /// join the others. Entries of tasks that left are dropped once they are the greater part of a
  /// list, so a queue whose tasks are cancelled from the middle does not keep them.
  mutating func endRevisits(in epochs: @autoclosure () -> AdmissionEpochs) {
    revisitedInLastPass = revisits
    revisits = 0
    if !due.isEmpty {
      for entry in due[nextDue...] where entry.row.pointee.runKey == entry.key { ends.push(entry) }
      due.removeAll(keepingCapacity: true)
      nextDue = 0
    }
    // The tasks the connection limit held are known when the pass decided them all again, or
    // when the others were decided with the same inputs.
    if slotHoles.isEmpty {
      slotHolesKnown = true
      slotLimit = 0
      if filedToVisit.contains(where: { $0.slotLimit != nil }) { slotEpochs = epochs() }
    } else if slotHolesKnown && !slotEpochs.agree(with: epochs(), on: .all) {
      slotHolesKnown = false
    }
    skipsSlotHoles = false
    if !filedToVisit.isEmpty {
      for (entry, limit) in filedToVisit {
        if let limit {
          slotHoles.push(entry)
          slotLimit = max(slotLimit, limit)
        } else {
          toVisit.push(entry)
        }
      }
      filedToVisit.removeAll(keepingCapacity: true)
    }
    if toVisit.count + slotHoles.count > 32 + 2 * toVisitCount {
      toVisit.filter { $0.row.pointee.runKey == $0.key }
      slotHoles.filter { $0.row.pointee.runKey == $0.key }
    }
    if ends.count > 32 + 2 * blockedCount { ends.filter { $0.row.pointee.runKey == $0.key } }
  }

  /// Forgets everything filed; the caller has unfiled every filed row.
  mutating func reset(restartingKeys: Bool) {
    precondition(blockedCount == 0 && toVisitCount == 0, "internal inconsistency: a filed task was left")
    length = 0
    ends.removeAll()
    toVisit.removeAll()
    slotHoles.removeAll()
    slotHolesKnown = false
    due.removeAll(keepingCapacity: true)
    nextDue = 0
    filedToVisit.removeAll(keepingCapacity: true)
    if restartingKeys { nextNumber = 1 }
  }

  /// Drops the first ends whose tasks are no longer filed with them, so that `earliestEnd` is
  /// exact.
  mutating func dropStaleEnds() {
    while let first = ends.first, first.row.pointee.runKey != first.key { ends.removeFirst() }
  }
}
