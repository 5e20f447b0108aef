import Foundation

/// A dead process's Foundation task objects, released one at a time while the simulation's
/// thread waits for the app's next delegate calls, rather than all at once when the process ends.
///
/// Freeing one of swift-corelibs-foundation's `URLSessionTask`s (its dispatch queue, `Progress`,
/// locks) takes microseconds, and a process that made 10,000 tasks ends with 10,000 of them: in
/// `bgsim bench bridge` that was about 6% of the simulation thread's time, all on its critical
/// path. The waits give that time back: while the app runs a call on its delegate queue, the
/// simulation's thread would only spin (`QueueDrain.run`).
///
/// Nothing an app sees changes: the bridge alone holds these objects (the app's own references
/// keep theirs alive as before), their `deinit`s run no app code, and every call on them already
/// answers as a dead process's. What is left when the host goes is released with it.
final class DeferredRelease: @unchecked Sendable {
  private let lock = NSLock()
  /// Tables handed over whole (moving one costs nothing), flattened into `objects` when reached.
  private var tables: [[ObjectIdentifier: BridgedTaskObject]] = []
  private var objects: [BridgedTaskObject] = []
  /// Objects waiting in all, so that a run with many deaths and few calls stays bounded.
  private var count = 0
  /// Past this many waiting, a new table's objects are released at once, when their process ends.
  /// A variable for tests only (`DeferredReleaseLimitTests` lowers it rather than make 100,000
  /// tasks); change it before the first process ends.
  var limit = 100_000
  /// Released at each wait: a dead process's objects are about one per three calls in a fleet
  /// run, so one keeps up, and stays within the app's turn even when the app does nothing in the
  /// call (two or four a wait measured slower in `bgsim bench bridge`).
  static let perWait = 1

  /// Takes over a dead session's task objects.
  func add(_ table: [ObjectIdentifier: BridgedTaskObject]) {
    guard !table.isEmpty else { return }
    lock.lock()
    let full = count + table.count > limit
    if !full {
      tables.append(table)
      count += table.count
    }
    lock.unlock()
    // Over the limit: `table` is released as this returns, on the caller's thread.
  }

  /// Releases up to `perWait` objects; called by the simulation's thread while the app runs a call.
  func releaseSome() {
    lock.lock()
    defer { lock.unlock() }
    // Each object taken is dropped at once: it is deallocated here unless the app still holds it.
    var taken = 0
    while taken < Self.perWait, take() != nil { taken += 1 }
  }

  private func take() -> BridgedTaskObject? {
    guard count > 0 else { return nil }
    if objects.isEmpty, let table = tables.popLast() { objects = Array(table.values) }
    guard let object = objects.popLast() else { return nil }
    count -= 1
    return object
  }
}
