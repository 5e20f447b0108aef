import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// The wait queue alone: tasks taken out from anywhere leave the others in start order, and the
/// run of tasks known to be blocked shrinks with them.
@Suite("Component: wait queue")
struct WaitQueueTests {
  /// `count` tasks whose priorities fall one step at a time, so start order is creation order
  /// with no ties, in a queue of their own.
  static func queue(_ count: Int) -> (WaitQueue, [SimURLSessionTask]) {
    let engine = AdmissionPassRuleTests.engine()
    let tasks = AdmissionPassRuleTests.tasks(
      count, in: SessionConfiguration(identifier: "bg", kind: .background), engine: engine)
    var queue = WaitQueue()
    for (i, task) in tasks.enumerated() {
      task.priority = 1 - Double(i) / Double(count)
      queue.insert(task.row)
    }
    return (queue, tasks)
  }

  /// The uids left waiting, in start order.
  static func uids(_ queue: WaitQueue) -> [Int32] { queue.rows.map(\.pointee.uid) }

  @Test(
    "taking tasks out in queue order, in reverse or from the middle keeps the rest in order",
    arguments: [
      "front", "back", "middle", "alternate",
    ])
  func removalKeepsOrder(_ pattern: String) {
    let (start, tasks) = Self.queue(100)
    var queue = start
    let order: [Int] =
      switch pattern {
      case "front": Array(0..<60)
      case "back": Array((40..<100).reversed())
      case "middle": [50, 49, 51, 48, 52, 10, 90, 0, 99]
      default: (0..<50).flatMap { [$0, 99 - $0] }.filter { $0 % 3 != 0 }
      }
    for i in order { queue.remove(tasks[i].row) }
    let gone = Set(order)
    #expect(Self.uids(queue) == tasks.indices.filter { !gone.contains($0) }.map { tasks[$0].uid })
    #expect(queue.count == 100 - order.count)
  }

  @Test("a task whose priority the app changed while it waits is still found and taken out")
  func changedPriority() {
    var (queue, tasks) = Self.queue(40)
    tasks[17].priority = 0.99
    tasks[30].priority = 0
    queue.remove(tasks[17].row)
    queue.remove(tasks[30].row)
    #expect(!Self.uids(queue).contains(tasks[17].uid))
    #expect(!Self.uids(queue).contains(tasks[30].uid))
    #expect(queue.count == 38)
  }

  @Test("a task not in the queue changes nothing")
  func absentTask() {
    var (queue, tasks) = Self.queue(10)
    queue.remove(tasks[4].row)
    queue.remove(tasks[4].row)
    #expect(queue.count == 9)
  }

  @Test("the known-blocked run loses a task taken out of it, from either side, and none after it")
  func knownBlockedRun() {
    var (queue, tasks) = Self.queue(50)
    for task in tasks.prefix(30) { queue.run.fileBlocked(task.row, key: nil, until: nil) }
    queue.run.length = 30
    queue.remove(tasks[0].row)  // the run's first: the front moves
    queue.remove(tasks[29].row)  // the run's last
    queue.remove(tasks[45].row)  // behind the run: the tail moves
    queue.remove(tasks[40].row)
    #expect(queue.run.length == 28)
    #expect(queue.run.blockedCount == 28)
    #expect(tasks[0].row.pointee.runKey == 0 && tasks[29].row.pointee.runKey == 0)
    #expect(Self.uids(queue).prefix(28) == ArraySlice(tasks[1..<29].map(\.uid)))
  }

  /// `queue`'s first `count` tasks filed in order: every third to be visited, the others known
  /// blocked until 100 s, 99 s, ... (so the heap's order is not the queue's).
  static func file(_ count: Int, of queue: inout WaitQueue, tasks: [SimURLSessionTask]) {
    for (i, task) in tasks.prefix(count).enumerated() {
      if i % 3 == 2 {
        queue.run.fileToVisit(task.row, key: nil)
      } else {
        queue.run.fileBlocked(task.row, key: nil, until: SimTime(.seconds(100 - Int64(i))))
      }
    }
    queue.run.endRevisits(in: AdmissionEpochs())  // as a pass ends
    queue.run.length = count
  }

  @Test("a pass visits again, in queue order, the tasks whose end came and those filed to visit")
  func revisitsInQueueOrder() {
    var (queue, tasks) = Self.queue(40)
    Self.file(30, of: &queue, tasks: tasks)
    queue.remove(tasks[5].row)  // a task to visit that left
    queue.remove(tasks[28].row)  // the earliest end (72 s), which left: the next one is exact
    #expect(queue.run.earliestEnd == SimTime(.seconds(73)))
    var revisit: [KnownBlockedRun.Entry] = []
    // Ends 80 s and earlier came: the known-blocked tasks from the 21st on.
    let due = queue.run.beginRevisits(at: SimTime(.seconds(80)))
    while let entry = queue.run.nextRevisit() { revisit.append(entry) }
    let expected = (0..<30).filter { i in i != 5 && i != 28 && (i % 3 == 2 || i >= 20) }
    #expect(revisit.map(\.row.pointee.uid) == expected.map { tasks[$0].uid })
    #expect(due == expected.filter { $0 % 3 != 2 }.count)
    #expect(queue.run.earliestEnd == SimTime(.seconds(81)))
    // They stay filed until the pass files them again or they leave.
    #expect(queue.run.blockedCount == 19 && queue.run.toVisitCount == 9)
  }

  @Test("a pass that stops early leaves the tasks it did not reach for the next one, in order")
  func revisitsAfterAnEarlyStop() {
    var (queue, tasks) = Self.queue(40)
    Self.file(30, of: &queue, tasks: tasks)
    var first: [Int32] = []
    _ = queue.run.beginRevisits(at: SimTime(.seconds(80)))
    // The pass decides two tasks again, files them to visit, and stops.
    for _ in 0..<2 {
      let entry = queue.run.nextRevisit()!
      first.append(entry.row.pointee.uid)
      queue.run.fileToVisit(entry.row, key: entry.key)
    }
    queue.run.endRevisits(in: AdmissionEpochs())
    var second: [Int32] = []
    _ = queue.run.beginRevisits(at: SimTime(.seconds(80)))
    while let entry = queue.run.nextRevisit() { second.append(entry.row.pointee.uid) }
    let expected = (0..<30).filter { i in i % 3 == 2 || i >= 20 }.map { tasks[$0].uid }
    #expect(first == Array(expected.prefix(2)))
    #expect(second == expected)
  }

  @Test("tasks taken out from the middle leave no pile of stale entries once a pass ends")
  func staleEntriesAreDropped() {
    var (queue, tasks) = Self.queue(300)
    for (i, task) in tasks.enumerated() {
      if i % 3 == 2 {
        queue.run.fileToVisit(task.row, key: nil)
      } else {
        queue.run.fileBlocked(task.row, key: nil, until: SimTime(.seconds(1_000 - Int64(i))))
      }
    }
    queue.run.endRevisits(in: AdmissionEpochs())
    queue.run.length = 300
    for (i, task) in tasks.enumerated() where i % 5 != 0 { queue.remove(task.row) }
    let live = queue.run.blockedCount + queue.run.toVisitCount
    #expect(live == 60)
    #expect(queue.run.storedEntries > 250)
    _ = queue.run.beginRevisits(at: .zero)
    queue.run.endRevisits(in: AdmissionEpochs())
    #expect(queue.run.storedEntries == live)
    // The heap still gives the earliest end of those left: the 296th task's.
    #expect(queue.run.earliestEnd == SimTime(.seconds(705)))
  }

  @Test("a task placed among the filed ones ends the run there, and later ends go with it")
  func anInsertCutsTheRun() {
    var (queue, tasks) = Self.queue(40)
    let late = tasks[39]
    queue.remove(late.row)
    Self.file(30, of: &queue, tasks: tasks)
    late.priority = tasks[10].priority - 0.001 / 40  // between the 11th and the 12th
    queue.insert(late.row)
    #expect(queue.run.length == 11)
    #expect(queue.run.blockedCount == 8 && queue.run.toVisitCount == 3)
    #expect(tasks[11...29].allSatisfy { $0.row.pointee.runKey == 0 })
    #expect(queue.run.earliestEnd == SimTime(.seconds(90)))
  }

  @Test("forgetting the run unfiles every task and may number keys from the start again")
  func forgetRun() {
    var (queue, tasks) = Self.queue(20)
    Self.file(20, of: &queue, tasks: tasks)
    let first = tasks[0].row.pointee.runKey
    queue.forgetRun()
    #expect(queue.run.length == 0 && queue.run.blockedCount == 0 && queue.run.earliestEnd == nil)
    #expect(tasks.allSatisfy { $0.row.pointee.runKey == 0 })
    Self.file(20, of: &queue, tasks: tasks)
    // Keys are not reused while enough are left: a stale entry never matches a new filing.
    #expect(tasks[0].row.pointee.runKey > first)
  }

  @Test("tasks that start one by one behind a long known-blocked run move each row O(1) times")
  func startsBehindALongRun() {
    var (queue, tasks) = Self.queue(4_000)
    for task in tasks.prefix(2_000) { queue.run.fileBlocked(task.row, key: nil, until: nil) }
    queue.run.length = 2_000
    // As passes do: each reads the rows behind the run, and the first of them starts.
    for task in tasks[2_000...] {
      var tail = queue.rowsBehindRun
      #expect(tail.next() == task.row)
      queue.remove(task.row)
    }
    #expect(Self.uids(queue) == tasks.prefix(2_000).map(\.uid))
    // The gap is moved behind the run once, and the spent slots freed once. Moving the nearer
    // side at each start instead moved the rows behind it, about 2 million in all.
    #expect(queue.movedRows <= 2 * 4_000)
  }

  @Test("tasks that start one by one from the front of the run and behind it move few rows")
  func startsAtBothPlaces() {
    var (queue, tasks) = Self.queue(3_000)
    for task in tasks.prefix(1_000) { queue.run.fileBlocked(task.row, key: nil, until: nil) }
    queue.run.length = 1_000
    // A start date came for the run's first while a task behind the run starts, in turn.
    for i in 0..<1_000 {
      var tail = queue.rowsBehindRun
      #expect(tail.next() == tasks[1_000 + i].row)
      queue.remove(tasks[i].row)
      queue.remove(tasks[1_000 + i].row)
    }
    #expect(Self.uids(queue) == tasks[2_000...].map(\.uid))
    #expect(queue.movedRows < 6_000)
  }

  @Test("tasks of a higher priority queued one after another ahead of a long queue move few rows")
  func higherPriorityAhead() {
    let (_, tasks) = Self.queue(4_000)
    var queue = WaitQueue()
    for task in tasks.prefix(2_000) {
      task.priority = 0.1
      queue.insert(task.row)
    }
    for task in tasks[2_000...] {
      task.priority = 0.9
      queue.insert(task.row)
    }
    #expect(Self.uids(queue) == (tasks[2_000...] + tasks.prefix(2_000)).map(\.uid))
    // Each opened gap moves the 2,000 behind once and takes half as many insertions; inserting
    // in place moved them at each insertion (4 million).
    #expect(queue.movedRows <= 20 * 2_000)
  }

  @Test("random insertions and removals keep start order", arguments: [UInt64(1), 2, 3, 4, 5])
  func randomOperations(_ seed: UInt64) {
    let (_, tasks) = Self.queue(300)
    var random = SeededGenerator(seed: seed)
    var queue = WaitQueue()
    var waiting: [SimURLSessionTask] = []
    for step in 0..<3_000 {
      let roll = Int.random(in: 0..<10, using: &random)
      if roll < 5 || waiting.isEmpty {
        let candidates = tasks.filter { task in !waiting.contains { $0 === task } }
        guard let task = candidates.randomElement(using: &random) else { continue }
        // Mostly later than every waiting task (an append), sometimes anywhere.
        task.priority = roll < 3 ? -Double(step) : Double.random(in: -3_000...1, using: &random)
        queue.insert(task.row)
        waiting.append(task)
      } else if roll < 9 {
        let task = waiting.remove(at: Int.random(in: waiting.indices, using: &random))
        queue.remove(task.row)
      } else {
        let prefix = Int.random(in: 0...waiting.count, using: &random)
        let inOrder = waiting.sorted { WaitQueue.startsBefore($0.row, $1.row) }
        let gone = Set(inOrder.prefix(prefix).enumerated().filter { $0.offset % 2 == 0 }.map(\.element.uid))
        queue.removeFirst(prefix) { gone.contains($0.pointee.uid) }
        waiting.removeAll { gone.contains($0.uid) }
      }
      let expected = waiting.sorted { WaitQueue.startsBefore($0.row, $1.row) }.map(\.uid)
      #expect(Self.uids(queue) == expected, "step \(step)")
      var tail = queue.rowsBehindRun
      var read: [Int32] = []
      while let row = tail.next() { read.append(row.pointee.uid) }
      #expect(read == expected && tail.taken == expected.count, "a pass's read, step \(step)")
      #expect(queue.count == waiting.count)
      if Self.uids(queue) != expected { return }
    }
  }

  @Test("a queue emptied from its front and filled again keeps its order")
  func emptiedAndRefilled() {
    var (queue, tasks) = Self.queue(64)
    for task in tasks { queue.remove(task.row) }
    #expect(queue.isEmpty)
    for task in tasks.reversed() { queue.insert(task.row) }
    #expect(Self.uids(queue) == tasks.map(\.uid))
  }
}
