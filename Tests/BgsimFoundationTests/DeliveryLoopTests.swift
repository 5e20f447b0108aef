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
    let secondDone = DispatchSemaphore(value: 0)
    let seen = LockedValues()
    loop.submit {
      firstRunning.signal()
      release.wait()
    }
    firstRunning.wait()
    loop.submit {
      seen.append(OperationQueue.current === queue)
      secondDone.signal()
    }
    release.signal()
    secondDone.wait()
    #expect(seen.values == [true])
    #expect(loop.isAlive)
    loop.stop()
    queue.waitUntilAllOperationsAreFinished()
    #expect(!loop.isAlive)
  }
}
final class LockedValues: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [Bool] = []
  func append(_ value: Bool) {
    lock.lock()
    stored.append(value)
    lock.unlock()
  }
  var values: [Bool] {
    lock.lock()
    defer { lock.unlock() }
    return stored
  }
}
