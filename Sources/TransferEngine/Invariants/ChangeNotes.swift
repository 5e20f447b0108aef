/// The indexes of what changed (task rows by uid, wait queues by key) since the invariant checker
/// last took them, noted while invariants are checked (`Simulation.checksInvariants`): after an
/// event the checker reads only those (`InvariantChecker.tasksToCheck`), not every task or queue.
///
/// Off, noting is one flag to test: a change costs nothing more when invariants are not checked.
struct ChangeNotes {
  private(set) var isOn = false
  /// In the order noted, with repeats.
  private(set) var noted: [Int32] = []

  /// Starts noting, the `existing` indexes so far (0 up to it) counting as changed, or stops.
  mutating func turn(_ on: Bool, existing: Int32) {
    isOn = on
    noted = on ? Array(0..<existing) : []
  }

  @inline(__always) mutating func note(_ index: Int32) {
    if isOn { append(index) }
  }

  /// Out of line, so that a change, inlined wherever a rule makes one, grows by a test and a
  /// branch only: an inlined append made `bench share 1000` 2% slower.
  @inline(never) private mutating func append(_ index: Int32) { noted.append(index) }

  /// The indexes noted since the last call, and none from then on. Handed over, not copied:
  /// emptying a list the caller still holds "keeping capacity" allocated a new one as large as
  /// the largest ever noted (every row, at the start) at every event.
  mutating func take() -> [Int32] {
    let taken = noted
    noted = []
    return taken
  }
}

extension Array where Element == Int32 {
  /// The elements in ascending order, each once: the order the checker reads tasks and queues
  /// in, whatever order they were noted in.
  func sortedUnique() -> [Int32] {
    var unique: [Int32] = []
    unique.reserveCapacity(count)
    for element in sorted() where unique.last != element { unique.append(element) }
    return unique
  }
}
