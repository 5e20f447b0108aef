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
    queue.knownBlocked = 30
    queue.remove(tasks[0].row)  // the run's first: the front moves
    queue.remove(tasks[29].row)  // the run's last
    queue.remove(tasks[45].row)  // behind the run: the tail moves
    queue.remove(tasks[40].row)
    #expect(queue.knownBlocked == 28)
    #expect(Self.uids(queue).prefix(28) == ArraySlice(tasks[1..<29].map(\.uid)))
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
