import Foundation

/// The delivery loops allowed to wait for a next call, across every simulation of the process.
///
/// A waiting loop (`DeliveryLoop`) holds one of the threads that run `OperationQueue`s and
/// global dispatch queues. On Linux that pool has as many threads as the machine has cores and
/// does not add one when a thread waits on a semaphore, so once waiting loops hold all of them,
/// the next operation (the first call on another session's queue, another simulation's call in
/// a test running in parallel) waits for a loop's idle timeout. On a 2-core machine with 4
/// loops kept per process, an app with 20 sessions, each called once, took 2 s of real time for
/// 8 ms of work. So the most recently called loops are kept, at most one fewer than the cores,
/// for the whole process (`shared`): one thread is always left for everything else. On one core
/// none is kept: each call's loop ends after the call (an operation per call, as on a queue the
/// app made).
final class ParkedLoops: @unchecked Sendable {
  /// The process's: one fewer than the active cores.
  static let shared = ParkedLoops(limit: max(0, ProcessInfo.processInfo.activeProcessorCount - 1))

  /// How many loops may wait at once.
  let limit: Int
  private let lock = NSLock()
  /// Most recent last, at most `limit`.
  private var recent: [DeliveryLoop] = []

  init(limit: Int) { self.limit = limit }

  /// Makes `loop` the most recent, before a call is handed to it, and asks the oldest past
  /// `limit` to stop (each ends its operation at once instead of after its idle timeout).
  func keep(_ loop: DeliveryLoop) {
    lock.lock()
    if recent.last === loop {
      lock.unlock()
      return
    }
    if let index = recent.firstIndex(where: { $0 === loop }) { recent.remove(at: index) }
    recent.append(loop)
    let excess = recent.count - limit
    let stopping = excess > 0 ? Array(recent.prefix(excess)) : []
    if excess > 0 { recent.removeFirst(excess) }
    lock.unlock()
    for old in stopping { old.stop() }
  }

  /// After `loop`'s call: stops it when it is no longer kept. Another simulation may have
  /// pushed it out between `keep` and the call, while it was stopped, when asking it to stop
  /// does nothing; the call then started it again, and nothing would end it before its timeout.
  func stopUnlessKept(_ loop: DeliveryLoop) {
    if !isKept(loop) { loop.stop() }
  }

  /// Whether `loop` is one of the loops allowed to wait.
  func isKept(_ loop: DeliveryLoop) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    return recent.contains { $0 === loop }
  }
}
