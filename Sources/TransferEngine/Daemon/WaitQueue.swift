/// The tasks of one (session, host) pair that want to run, in start order: higher `priority`
/// first, then the order `resume()` was called. Also counts the pair's open connections, which
/// `httpMaximumConnectionsPerHost` bounds.
struct WaitQueue {
  private(set) var tasks: [SimURLSessionTask] = []
  var running = 0

  var isEmpty: Bool { tasks.isEmpty }

  /// Inserts keeping start order. O(log n) to find the place; appends in the common case.
  mutating func insert(_ task: SimURLSessionTask) {
    if let last = tasks.last, !Self.startsBefore(task, last) {
      tasks.append(task)
      return
    }
    var low = 0
    var high = tasks.count
    while low < high {
      let mid = (low + high) / 2
      if Self.startsBefore(task, tasks[mid]) { high = mid } else { low = mid + 1 }
    }
    tasks.insert(task, at: low)
  }

  mutating func remove(_ task: SimURLSessionTask) {
    if let i = tasks.firstIndex(where: { $0 === task }) { tasks.remove(at: i) }
  }

  mutating func removeAll(where predicate: (SimURLSessionTask) -> Bool) {
    tasks.removeAll(where: predicate)
  }

  static func startsBefore(_ a: SimURLSessionTask, _ b: SimURLSessionTask) -> Bool {
    if a.priority != b.priority { return a.priority > b.priority }
    return a.resumeSequence < b.resumeSequence
  }
}
