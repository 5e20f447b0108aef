import Dispatch
import Foundation

/// One long-lived operation on a delegate queue the bridge made itself (the app passed nil) that
/// runs the bridge's delegate calls one after another. A call then costs two hand-offs between
/// threads (`HandOffSignal`) instead of a new `Operation` (tens of microseconds each in
/// swift-corelibs-foundation), and still runs inside an operation of that queue, so
/// `OperationQueue.current` is the delegate queue.
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
  private var next: [Job] = []
  private var stopAsked = false
  private let wake = HandOff.makeSignal()
  private weak var queue: OperationQueue?

  init(queue: OperationQueue) { self.queue = queue }

  /// True while the loop's operation is on the queue.
  var isAlive: Bool {
    lock.lock()
    defer { lock.unlock() }
    return state != .stopped
  }

  /// True once the loop stopped or was asked to (`stop()`): it holds no thread past its call.
  var isStoppedOrStopping: Bool {
    lock.lock()
    defer { lock.unlock() }
    return state == .stopped || stopAsked
  }

  /// A call and what to signal once it ran and the loop is ready for the next one.
  private struct Job {
    var work: @Sendable () -> Void
    var finished: HandOffSignal
  }

  /// Runs `work` in the loop's operation, starting one if there is none, and signals `finished`
  /// after it. The loop does its own bookkeeping (is the app's work queued behind it? wait for
  /// the next call) before it signals, so the caller never meets it on a lock afterwards: a
  /// contended lock sleeps, and each such sleep costs more than the call.
  ///
  /// A call handed over while the previous one is still finishing (its caller was released
  /// before the loop went back to waiting) is taken by the loop before it waits, not queued as an
  /// operation of its own: that would end the loop and make the next call start a new one.
  func submit(_ work: @escaping @Sendable () -> Void, then finished: HandOffSignal) {
    guard let queue else { return finished.signal() }
    let job = Job(work: work, finished: finished)
    lock.lock()
    switch state {
    case .waiting:
      next.append(job)
      state = .busy
      lock.unlock()
      wake.signal()
    case .stopped:
      state = .busy
      stopAsked = false
      lock.unlock()
      queue.addOperation { [self] in loop(first: job) }
    case .busy:
      // The bridge waits for each call before the next, so this does not happen; stay in order.
      next.append(job)
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

  private func loop(first: Job) {
    var job = first
    while true {
      job.work()
      // The app queued operations of its own: let them run now, in order, and calls handed
      // over meanwhile after them.
      if (queue?.operationCount ?? 0) > 1 { break }
      job.finished.signal()
      guard let following = waitForWork() else { return }
      job = following
    }
    lock.lock()
    state = .stopped
    let pending = next
    next = []
    lock.unlock()
    job.finished.signal()
    for later in pending {
      queue?.addOperation {
        later.work()
        later.finished.signal()
      }
    }
  }

  /// The next call, or nil (and the loop stopped) when asked to stop or idle too long.
  private func waitForWork() -> Job? {
    let deadline = DispatchTime.now() + DeliveryLoop.idleTimeout
    lock.lock()
    while true {
      // A call handed over before a stop request still runs first.
      if !next.isEmpty {
        let job = next.removeFirst()
        state = .busy
        lock.unlock()
        return job
      }
      if stopAsked || DispatchTime.now() >= deadline {
        state = .stopped
        lock.unlock()
        return nil
      }
      state = .waiting
      lock.unlock()
      // A signal left over from a call that was taken without waiting just loops once more.
      _ = wake.wait(until: deadline)
      lock.lock()
    }
  }
}
