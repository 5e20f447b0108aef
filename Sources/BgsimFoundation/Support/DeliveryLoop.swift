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

  /// Runs `work` in the loop's operation, starting one if there is none. A call handed over
  /// while the previous one is still finishing (its caller was released before the loop went
  /// back to waiting) is taken by the loop before it waits, not queued as an operation of its
  /// own: that would end the loop and make the next call start a new one.
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
      if let earlier = next {
        // The bridge waits for each call before the next, so this does not happen; stay in order.
        next = {
          earlier()
          work()
        }
      } else {
        next = work
      }
      lock.unlock()
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
      // The app queued operations of its own: let them run now, in order, and a call handed
      // over meanwhile after them.
      if (queue?.operationCount ?? 0) > 1 { break }
      guard let following = waitForWork() else { return }
      work = following
    }
    lock.lock()
    state = .stopped
    let pending = next
    next = nil
    lock.unlock()
    if let pending { queue?.addOperation(pending) }
  }

  /// The next call, or nil (and the loop stopped) when asked to stop or idle too long.
  private func waitForWork() -> (@Sendable () -> Void)? {
    let deadline = DispatchTime.now() + DeliveryLoop.idleTimeout
    lock.lock()
    while true {
      // A call handed over before a stop request still runs first.
      if let work = next {
        next = nil
        state = .busy
        lock.unlock()
        return work
      }
      if stopAsked || DispatchTime.now() >= deadline {
        state = .stopped
        lock.unlock()
        return nil
      }
      state = .waiting
      lock.unlock()
      // A signal left over from a call that was taken without waiting just loops once more.
      _ = wake.wait(timeout: deadline)
      lock.lock()
    }
  }
}
