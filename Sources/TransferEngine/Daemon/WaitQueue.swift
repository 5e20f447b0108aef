/// The tasks of one (session, host) pair that want to run, in start order: transfers an
/// interface change cut first (in resume order), then higher `priority`, then the order
/// `resume()` was called. Also counts the pair's open connections, which
/// `httpMaximumConnectionsPerHost` bounds.
///
/// Tasks leave mostly from the front (they start in order), so the waiting tasks are
/// `storage[head...]` and taking started tasks off the front costs O(1) amortised, however long
/// the queue.
struct WaitQueue {
  /// Slots before `head` are spent; compacted once they are half the storage.
  private var storage: [SimURLSessionTask] = []
  private var head = 0
  /// Connections the pair holds now.
  private(set) var running = 0

  init(running: Int = 0) { self.running = running }

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
  /// The waiting tasks, in start order.
  var tasks: ArraySlice<SimURLSessionTask> { storage[head...] }

  /// Inserts keeping start order. O(log n) to find the place; appends in the common case.
  mutating func insert(_ task: SimURLSessionTask) {
    if let last = storage.last, head < storage.count, !Self.startsBefore(task, last) {
      storage.append(task)
      return
    }
    var low = head
    var high = storage.count
    while low < high {
      let mid = (low + high) / 2
      if Self.startsBefore(task, storage[mid]) { high = mid } else { low = mid + 1 }
    }
    storage.insert(task, at: low)
  }

  mutating func remove(_ task: SimURLSessionTask) {
    if let i = storage[head...].firstIndex(where: { $0 === task }) { storage.remove(at: i) }
  }

  /// Removes the tasks among the first `prefix` waiting ones for which `isGone` holds, keeping
  /// the order of the rest. O(prefix) amortised.
  mutating func removeFirst(_ prefix: Int, where isGone: (SimURLSessionTask) -> Bool) {
    precondition(prefix <= count, "internal inconsistency: removing past the end of a wait queue")
    var read = head + prefix
    var write = read
    while read > head {
      read -= 1
      if !isGone(storage[read]) {
        write -= 1
        storage[write] = storage[read]
      }
    }
    head = write
    if head == storage.count {
      storage.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 32 && head * 2 >= storage.count {
      storage.removeFirst(head)
      head = 0
    }
  }

  static func startsBefore(_ a: SimURLSessionTask, _ b: SimURLSessionTask) -> Bool {
    // Transfers an interface change cut take their slots back first, in resume order.
    if a.machine.reclaimsSlot != b.machine.reclaimsSlot { return a.machine.reclaimsSlot }
    if a.machine.reclaimsSlot { return a.resumeSequence < b.resumeSequence }
    if a.priority != b.priority { return a.priority > b.priority }
    return a.resumeSequence < b.resumeSequence
  }
}
