import Dispatch
import Foundation

/// One long-lived operation on a delegate queue the bridge made itself (the app passed nil) that
/// runs the bridge's delegate calls one after another. A call then costs two semaphore hand-offs
/// instead of a new `Operation` (tens of microseconds each in swift-corelibs-foundation), and still
/// runs inside an operation of that queue, so `OperationQueue.current` is the delegate queue.
///
/// The operation ends when the app queues operations of its own (they run next, in order), when
/// the bridge flushes the queue (`stop()`), and after `idleTimeout` of real time without work, so
/// it never keeps a thread once the simulation stops. Until then it counts in the queue's
/// `operationCount`.
final class DeliveryLoop: @unchecked Sendable {
  static let idleTimeout: DispatchTimeInterval = .milliseconds(100)

  private enum State { case stopped, busy, waiting }
  private let lock = NSLock()
  private var state = State.stopped
  private var next: (@Sendable () -> Void)?
  private var stopAsked = false
  private let wake = DispatchSemaphore(value: 0)
  private weak var queue: OperationQueue?

  init(queue: OperationQueue) { self.queue = queue }

  /// True while the loop's operation is on the queue.
  var isAlive: Bool {
    lock.lock()
    defer { lock.unlock() }
    return state != .stopped
  }

  /// Runs `work` in the loop's operation, starting one if none is waiting.
  func submit(_ work: @escaping @Sendable () -> Void) {
    guard let queue else { return }
    lock.lock()
    switch state {
    case .waiting:
      next = work
      state = .busy
      lock.unlock()
      wake.signal()
    case .stopped:
      state = .busy
      stopAsked = false
      lock.unlock()
      queue.addOperation { [self] in loop(first: work) }
    case .busy:
      // The bridge waits for each call before the next, so this does not happen; stay correct.
      lock.unlock()
      queue.addOperation(work)
    }
  }

  /// Ends the loop's operation after its current call, so operations queued behind it run.
  func stop() {
    lock.lock()
    let waiting = state == .waiting
    if state != .stopped { stopAsked = true }
    lock.unlock()
    if waiting { wake.signal() }
  }

  private func loop(first: @escaping @Sendable () -> Void) {
    var work = first
    while true {
      work()
      // The app queued operations of its own: let them run now, in order.
      if (queue?.operationCount ?? 0) > 1 { break }
      guard let following = waitForWork() else { return }
      work = following
    }
    lock.lock()
    state = .stopped
    lock.unlock()
  }

  /// The next call, or nil (and the loop stopped) when asked to stop or idle too long.
  private func waitForWork() -> (@Sendable () -> Void)? {
    lock.lock()
    if stopAsked {
      state = .stopped
      lock.unlock()
      return nil
    }
    state = .waiting
    lock.unlock()
    _ = wake.wait(timeout: .now() + DeliveryLoop.idleTimeout)
    lock.lock()
    defer { lock.unlock() }
    // A call handed over just as the wait ended is still taken.
    if let work = next {
      next = nil
      return work
    }
    state = .stopped
    return nil
  }
}
