import Dispatch
import Foundation
import Testing

@testable import BgsimFoundation

@Suite struct DeliveryLoopTests {
  /// A call handed to the delivery loop while it is still finishing the previous one runs in the
  /// same long-lived operation: the loop stays alive instead of ending for an operation of its own.
  @Test func aCallHandedOverWhileTheLoopIsBusyRunsInTheSameOperation() {
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1
    let loop = DeliveryLoop(queue: queue)
    let firstRunning = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let firstDone = HandOff.makeSignal()
    let secondDone = HandOff.makeSignal()
    let seen = LockedList<Bool>()
    loop.submit(
      {
        firstRunning.signal()
        release.wait()
      }, then: firstDone)
    firstRunning.wait()
    loop.submit({ seen.append(OperationQueue.current === queue) }, then: secondDone)
    release.signal()
    firstDone.wait()
    secondDone.wait()
    #expect(seen.values == [true])
    #expect(loop.isAlive)
    loop.stop()
    queue.waitUntilAllOperationsAreFinished()
    #expect(!loop.isAlive)
  }

  /// When the app queued an operation of its own during a call, the loop ends so that it runs
  /// next; the call is still reported finished, and the next call starts a new loop after it.
  @Test func theLoopStepsAsideForOperationsTheAppQueued() {
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1
    let loop = DeliveryLoop(queue: queue)
    let order = LockedList<String>()
    let first = HandOff.makeSignal()
    loop.submit(
      {
        order.append("call 1")
        queue.addOperation { order.append("app's operation") }
      }, then: first)
    first.wait()
    let second = HandOff.makeSignal()
    loop.submit({ order.append("call 2") }, then: second)
    second.wait()
    #expect(order.values == ["call 1", "app's operation", "call 2"])
    loop.stop()
    queue.waitUntilAllOperationsAreFinished()
  }
}

/// What test threads record, in the order they recorded it.
final class LockedList<Element>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [Element] = []
  func append(_ value: Element) {
    lock.lock()
    stored.append(value)
    lock.unlock()
  }
  var values: [Element] {
    lock.lock()
    defer { lock.unlock() }
    return stored
  }
}
