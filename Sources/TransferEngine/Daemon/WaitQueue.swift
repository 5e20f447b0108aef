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
/// Tasks leave mostly from the front (they start in order), so the waiting tasks are
/// `storage[head...]` and taking started tasks off the front costs O(1) amortised, however long
/// the queue.
struct WaitQueue {
  typealias Row = UnsafeMutablePointer<TaskParts>

  /// A queue's number in the daemon, in the order the (session, host) pairs were first used:
  /// passes, connections and effects name a queue by it, so none hashes the pair's name
  /// ("identifier host", `Daemon.queueName`), which only a task's insertion or removal looks up.
  struct Key: Hashable {
    let index: Int32
  }

  /// Slots before `head` are spent; compacted once they are half the storage.
  private var storage: [Row] = []
  private var head = 0
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
    for row in storage[head..<(head + run.length)] { run.unfile(row) }
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

  var isEmpty: Bool { head == storage.count }
  var count: Int { storage.count - head }
  /// The waiting tasks' rows, in start order.
  var rows: ArraySlice<Row> { storage[head...] }

  /// Inserts keeping start order. O(log n) to find the place; appends in the common case.
  mutating func insert(_ row: Row) {
    if let last = storage.last, head < storage.count, !Self.startsBefore(row, last) {
      storage.append(row)
      return
    }
    var low = head
    var high = storage.count
    while low < high {
      let mid = (low + high) / 2
      if Self.startsBefore(row, storage[mid]) { high = mid } else { low = mid + 1 }
    }
    storage.insert(row, at: low)
    // A task placed among the filed ones ends the run there: keys grow in queue order, and
    // there is none for it between its neighbours'. The pass walks the tasks behind it anyway.
    if low - head < run.length {
      for behind in storage[(low + 1)...(head + run.length)] { run.unfile(behind) }
      run.length = low - head
      run.dropStaleEnds()
    }
  }

  /// Takes a waiting task out (cancelled, suspended, its process gone). The tasks on the nearer
  /// side of it move by one: a batch that ends a long queue's tasks in queue order (an
  /// `invalidateAndCancel`, a force quit) or in reverse costs O(1) a task, where moving the tail
  /// each time was quadratic in the queue.
  mutating func remove(_ row: Row) {
    guard let i = index(of: row) else { return }
    if i - head < run.length {
      run.length -= 1
      run.unfile(row)
      run.dropStaleEnds()
    }
    guard i - head < storage.count - i else { return _ = storage.remove(at: i) }
    storage.withUnsafeMutableBufferPointer { slots in
      var j = i
      while j > head {
        slots[j] = slots[j - 1]
        j -= 1
      }
    }
    head += 1
    compact()
  }

  /// Where `row` is in `storage`, or nil when it is not waiting here. Found by its start order
  /// (O(log n)) while the keys it was placed by are unchanged; the app may change a waiting
  /// task's `priority`, and then the queue is scanned.
  private func index(of row: Row) -> Int? {
    var low = head
    var high = storage.count
    while low < high {
      let mid = (low + high) / 2
      if Self.startsBefore(storage[mid], row) { low = mid + 1 } else { high = mid }
    }
    if low < storage.count && storage[low] == row { return low }
    return storage[head...].firstIndex(of: row)
  }

  /// Frees the spent slots before `head` once they are half the storage (or all of it).
  private mutating func compact() {
    if head == storage.count {
      storage.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 32 && head * 2 >= storage.count {
      storage.removeFirst(head)
      head = 0
    }
  }

  /// Removes the tasks among the first `prefix` waiting ones for which `isGone` holds, keeping
  /// the order of the rest. O(prefix) amortised.
  mutating func removeFirst(_ prefix: Int, where isGone: (Row) -> Bool) {
    precondition(prefix <= count, "internal inconsistency: removing past the end of a wait queue")
    var read = head + prefix
    var write = read
    let filedEnd = head + run.length
    while read > head {
      read -= 1
      if !isGone(storage[read]) {
        write -= 1
        storage[write] = storage[read]
      } else if read < filedEnd {
        run.length -= 1
        run.unfile(storage[read])
      }
    }
    run.dropStaleEnds()
    head = write
    compact()
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
