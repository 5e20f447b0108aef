import SimKernel

/// The tasks of one (session, host) pair that want to run, in start order: transfers an
/// interface change cut first (in resume order), then higher `priority`, then the order
/// `resume()` was called. Also counts the pair's open connections, which
/// `httpMaximumConnectionsPerHost` bounds.
///
/// It holds the tasks' rows of `TaskTable` (`TaskParts`), not their handles: a full admission
/// pass reads every waiting task, and the rows lie side by side in the table's blocks, where the
/// handles lie wherever the app's objects were made (among Foundation's, through the bridge).
/// A row's address is fixed for the table's life, and a task leaves its queue before it ends.
///
/// The rows lie in one array with spent slots before `head` and in a gap (a gap buffer): the
/// waiting tasks are `storage[head..<gapStart]` then `storage[gapEnd...]`. A task leaves from the
/// front by moving `head`, and from elsewhere by moving the gap to it and widening the gap, so
/// tasks that leave one after another from the same place cost O(1) each: from the front (tasks
/// start in order), from just behind a long run of known-blocked tasks, and, for insertions, at
/// the place tasks of a higher `priority` go one after another. Moving the tasks on the nearer
/// side instead cost O(n) a start behind such a run (a run of 50,000 ahead of 50,000 tasks that
/// start spent 8% of the run in `memmove`) and an insertion ahead of a long queue.
struct WaitQueue {
  typealias Row = UnsafeMutablePointer<TaskParts>

  /// A queue's number in the daemon, in the order the (session, host) pairs were first used:
  /// passes, connections and effects name a queue by it, so none hashes the pair's name
  /// ("identifier host", `Daemon.queueName`), which only a task's insertion or removal looks up.
  struct Key: Hashable {
    let index: Int32
  }

  /// The waiting tasks' rows, from `head`, around the gap `gapStart..<gapEnd`; the spent slots are
  /// freed once they are as many as the waiting tasks (`compactIfSparse`).
  private var storage: [Row] = []
  private var head = 0
  private var gapStart = 0
  private var gapEnd = 0
  /// How many rows the queue has moved from slot to slot so far (what `WaitQueueTests` bound).
  private(set) var movedRows = 0
  /// Connections the pair holds now.
  private(set) var running = 0
  /// What the last passes learnt about the queue's front: the tasks known blocked, and those to
  /// visit again (`KnownBlockedRun`).
  var run: KnownBlockedRun

  /// The known-blocked run's record, as a pass asks whether it still stands.
  struct BlockedRun {
    /// The earliest instant that ends one of its blocks (nil: none ends by itself).
    let until: SimTime?
    let epochs: AdmissionEpochs
    let reads: AdmissionInputGroups

    /// Whether the run still stands with admission's inputs numbered `epochs` at `now`: a pass
    /// would decide the same for each of its tasks.
    func stands(in epochs: AdmissionEpochs, at now: SimTime) -> Bool {
      guard self.epochs.agree(with: epochs, on: reads) else { return false }
      if let until, now >= until { return false }
      return true
    }
  }

  /// The known-blocked run when every waiting task is known blocked.
  var wholeBlockedRun: BlockedRun? {
    guard run.blockedCount > 0, run.blockedCount == count, run.length == count else { return nil }
    return BlockedRun(until: run.earliestEnd, epochs: run.epochs, reads: run.reads)
  }

  /// The queue of the pair numbered `index` (`Key`), which numbers its tasks' keys in the run.
  init(index: Int32 = 0, running: Int = 0) {
    self.running = running
    run = KnownBlockedRun(queue: index)
  }

  /// Unfiles every filed task: the next pass decides every task again. Also when the run's keys
  /// are about to run out (`KnownBlockedRun.hasKeys`), which lets them start again.
  mutating func forgetRun() {
    let restartingKeys = !run.hasKeys(for: count)
    guard run.length > 0 || restartingKeys else { return }
    moveGap(to: run.length)
    for row in storage[head..<gapStart] { run.unfile(row) }
    run.reset(restartingKeys: restartingKeys)
  }

  /// A task of the pair connects.
  mutating func openConnection() { running += 1 }

  /// A connection of the pair closed; returns the count left (never below 0 unless the
  /// engine's bookkeeping is broken, which the caller reports).
  mutating func closeConnection() -> Int {
    running -= 1
    return running
  }

  var isEmpty: Bool { count == 0 }
  var count: Int { gapStart - head + storage.count - gapEnd }
  /// The waiting tasks' rows, in start order: a copy, for inspection (a pass reads
  /// `rowsBehindRun`).
  var rows: [Row] { Array(storage[head..<gapStart]) + storage[gapEnd...] }

  /// The waiting tasks behind the run's filed ones (`run.length`), in start order, read where
  /// they lie: the gap does not move, so a pass that reads a few of them costs no more when the
  /// gap is far (tasks queued at one place while passes read another moved it each time).
  var rowsBehindRun: Tail {
    let skipped = head + run.length
    // Behind the gap already: no gap to jump.
    if skipped >= gapStart {
      return Tail(slots: storage[...], first: skipped - gapStart + gapEnd, jumpAt: -1, jumpTo: 0)
    }
    return Tail(slots: storage[...], first: skipped, jumpAt: gapStart, jumpTo: gapEnd)
  }

  /// Rows in start order from slot `first` to the storage's end, jumping from the gap's start to
  /// its end: one slice (one reference to the storage), and per row one comparison more than a
  /// plain slice's, which the branch predictor always wins.
  struct Tail {
    private let slots: ArraySlice<Row>
    private let first: Int
    private let jumpAt: Int
    private let jumpTo: Int
    private var slot: Int

    init(slots: ArraySlice<Row>, first: Int, jumpAt: Int, jumpTo: Int) {
      self.slots = slots
      self.first = first
      self.jumpAt = jumpAt
      self.jumpTo = jumpTo
      slot = first
    }

    /// The next row, or nil after the last.
    mutating func next() -> Row? {
      if slot == jumpAt { slot = jumpTo }
      guard slot < slots.endIndex else { return nil }
      defer { slot += 1 }
      return slots[slot]
    }

    /// How many rows `next()` gave.
    var taken: Int { slot <= jumpAt || jumpAt < 0 ? slot - first : jumpAt - first + slot - jumpTo }
  }

  /// How many tasks an insertion or a removal moves by one rather than move the gap: each such
  /// move is paid again at the next insertion or removal there, where the gap's is paid once.
  static let nearby = 32

  /// The slot of the waiting task at `position` in start order.
  private func slot(_ position: Int) -> Int {
    let slot = head + position
    return slot < gapStart ? slot : slot - gapStart + gapEnd
  }

  /// Inserts keeping start order. O(log n) to find the place; appends in the common case.
  mutating func insert(_ row: Row) {
    // The last waiting task is the storage's last unless the gap ends the storage; an empty
    // queue has no storage (`compactIfSparse`).
    let last = gapEnd < storage.count ? storage.count - 1 : gapStart - 1
    if last < head || !Self.startsBefore(row, storage[last]) {
      storage.append(row)
      return
    }
    let count = self.count
    var low = 0
    var high = count
    while low < high {
      let mid = (low + high) / 2
      if Self.startsBefore(row, storage[slot(mid)]) { high = mid } else { low = mid + 1 }
    }
    let front = gapStart - head
    let near = min(abs(low - front), Self.nearby)
    if head > 0 && low <= front && low <= near {
      // Into a spent slot before the front: the few tasks ahead of it move back by one.
      shiftSlots(head..<(head + low), by: -1)
      head -= 1
      storage[head + low] = row
    } else if (low >= front && count - low <= near) || (gapEnd == gapStart && count - low <= Self.nearby) {
      // Near the end: the few tasks behind it move back by one.
      let at = slot(low)
      storage.insert(row, at: at)
      movedRows &+= storage.count - 1 - at
      if low < front {
        gapStart += 1
        gapEnd += 1
      }
    } else {
      if gapEnd == gapStart { openGap(at: low, behind: count - low) } else { moveGap(to: low) }
      storage[gapStart] = row
      gapStart += 1
    }
    // A task placed among the filed ones ends the run there: keys grow in queue order, and
    // there is none for it between its neighbours'. The pass walks the tasks behind it anyway.
    if low < run.length {
      for position in (low + 1)...run.length { run.unfile(storage[slot(position)]) }
      run.length = low
      run.dropStaleEnds()
    }
  }

  /// Takes a waiting task out (cancelled, suspended, its process gone, started). Within
  /// `nearby` tasks of either end the tasks between it and that end move by one; elsewhere the
  /// gap moves to it and takes its slot. A batch that ends a long queue's tasks in queue order
  /// (an `invalidateAndCancel`, a force quit), in reverse, or one after another from the same
  /// place costs O(1) a task.
  mutating func remove(_ row: Row) {
    guard let position = index(of: row) else { return }
    if position < run.length {
      run.length -= 1
      run.unfile(row)
      run.dropStaleEnds()
    }
    let front = gapStart - head
    let near = min(abs(position - front), Self.nearby)
    if position < front && position <= near {
      shiftSlots(head..<(head + position), by: 1)
      head += 1
    } else if position >= front && count - 1 - position <= near {
      // Near the end: the few tasks behind it move up by one.
      let at = slot(position)
      shiftSlots((at + 1)..<storage.count, by: -1)
      storage.removeLast()
    } else {
      moveGap(to: position)
      gapEnd += 1
    }
    compactIfSparse()
  }

  /// Where `row` is in start order, or nil when it is not waiting here. Found by its start order
  /// (O(log n)) while the keys it was placed by are unchanged; the app may change a waiting
  /// task's `priority`, and then the queue is scanned.
  private func index(of row: Row) -> Int? {
    let front = gapStart - head
    // The usual places first: the front (tasks start in order) and just behind the gap.
    if front > 0 && storage[head] == row { return 0 }
    if gapEnd < storage.count && storage[gapEnd] == row { return front }
    // One side of the gap holds it, if either does: a binary search there, in slots.
    let behindGap = front == 0 || Self.startsBefore(storage[gapStart - 1], row)
    let end = behindGap ? storage.count : gapStart
    var low = behindGap ? gapEnd : head
    var high = end
    while low < high {
      let mid = (low + high) / 2
      if Self.startsBefore(storage[mid], row) { low = mid + 1 } else { high = mid }
    }
    if low < end && storage[low] == row { return behindGap ? low - gapEnd + front : low - head }
    if let inFront = storage[head..<gapStart].firstIndex(of: row) { return inFront - head }
    return storage[gapEnd...].firstIndex(of: row).map { $0 - gapEnd + gapStart - head }
  }

  /// Moves the gap to just before the waiting task at `position` in start order (`count`: to the
  /// end), moving the tasks between: O(the distance).
  private mutating func moveGap(to position: Int) {
    let target = head + position
    let start = gapStart
    let end = gapEnd
    guard target != start else { return }
    let width = end - start
    // An empty gap is anywhere: nothing moves.
    guard width > 0 else {
      gapStart = target
      gapEnd = target
      return
    }
    // The tasks from `target` to the gap go to its far side, or those after it up to `target`
    // come to its near side.
    if target < start {
      shiftSlots(target..<start, by: width)
    } else {
      shiftSlots(end..<(target + width), by: -width)
    }
    gapStart = target
    gapEnd = target + width
  }

  /// Opens an empty gap before the waiting task at `position`, half as wide as the `behind` tasks
  /// from there (at least 16), moving those tasks back: the next insertions at that place fill
  /// it in O(1). Tasks given a higher `priority` than those waiting go in one after another at
  /// the same place, and each moved every task behind it (quadratic in a long queue).
  private mutating func openGap(at position: Int, behind: Int) {
    let width = max(16, behind / 2)
    let at = head + position
    let end = storage.count
    storage.append(contentsOf: repeatElement(storage[at], count: width))
    shiftSlots(at..<end, by: width)
    gapStart = at
    gapEnd = at + width
  }

  /// Moves the rows in `slots` by `offset` slots (over rows spent or moved already), in the order
  /// that never overwrites one not yet moved, and counts them in `movedRows`.
  @inline(__always) private mutating func shiftSlots(_ slots: Range<Int>, by offset: Int) {
    storage.withUnsafeMutableBufferPointer { rows in
      if offset > 0 {
        for from in slots.reversed() { rows[from + offset] = rows[from] }
      } else {
        for from in slots { rows[from + offset] = rows[from] }
      }
    }
    movedRows &+= slots.count
  }

  /// Frees the spent slots once they are as many as the waiting tasks (and at least 32), or all
  /// of the storage: O(n) after at least n tasks left.
  private mutating func compactIfSparse() {
    let spent = storage.count - count
    if spent == storage.count {
      storage.removeAll(keepingCapacity: true)
      head = 0
      gapStart = 0
      gapEnd = 0
    } else if spent >= 32 && spent >= count {
      moveGap(to: count)
      storage.removeLast(gapEnd - gapStart)
      storage.removeFirst(head)
      movedRows &+= storage.count
      head = 0
      gapStart = storage.count
      gapEnd = gapStart
    }
  }

  /// Removes the tasks among the first `prefix` waiting ones for which `isGone` holds, keeping
  /// the order of the rest. O(prefix) and the gap's distance to `prefix`, amortised.
  mutating func removeFirst(_ prefix: Int, where isGone: (Row) -> Bool) {
    precondition(prefix <= count, "internal inconsistency: removing past the end of a wait queue")
    moveGap(to: prefix)
    let filedEnd = head + run.length
    var write = head
    for read in head..<gapStart {
      let row = storage[read]
      if !isGone(row) {
        storage[write] = row
        write += 1
        movedRows &+= 1
      } else if read < filedEnd {
        run.length -= 1
        run.unfile(row)
      }
    }
    run.dropStaleEnds()
    gapStart = write
    compactIfSparse()
  }

  static func startsBefore(_ a: Row, _ b: Row) -> Bool {
    let first = a.pointee.machine.reclaimsSlot
    // Transfers an interface change cut take their slots back first, in resume order.
    if first != b.pointee.machine.reclaimsSlot { return first }
    if first { return a.pointee.record.resumeSequence < b.pointee.record.resumeSequence }
    if a.pointee.priority != b.pointee.priority { return a.pointee.priority > b.pointee.priority }
    return a.pointee.record.resumeSequence < b.pointee.record.resumeSequence
  }
}
