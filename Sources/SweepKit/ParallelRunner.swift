import CoreFoundation
import Foundation

/// Runs independent jobs on worker threads, one job (one simulation) per worker at a time.
///
/// Workers take the next job index from a shared counter, so long and short runs balance out;
/// each result goes into the slot of its job index, so the returned order never depends on
/// scheduling: `jobs: 8` returns exactly what `jobs: 1` does, provided `body` is deterministic.
///
/// Called on the main thread, the wait keeps serving the main run loop: code run through
/// `BgsimFoundation` queues its work on the main queue, and a main thread that only waited would
/// leave every worker waiting for it.
public enum ParallelRunner {
  /// Calls `body(i)` for every `i` in `0..<count` on `jobs` threads (1 runs on the calling
  /// thread) and returns the results by index. `progress(done)` is called after each job
  /// completes, one call at a time, with the number completed so far.
  public static func map<T: Sendable>(
    count: Int, jobs: Int, progress: (@Sendable (Int) -> Void)? = nil, _ body: @escaping @Sendable (Int) -> T
  ) -> [T] {
    run(count: count, jobs: jobs, progress: progress, body)
  }

  /// `work` for each of `items` on `jobs` threads, the results in the items' order. For the
  /// package's own callers (`ExplorationKit`), whose work reads values that are not `Sendable`
  /// but never changes them while the workers run.
  package static func map<Item, Result>(
    _ items: [Item], jobs: Int, _ work: @escaping (Item) -> Result
  ) -> [Result] {
    run(count: items.count, jobs: jobs, progress: nil) { work(items[$0]) }
  }

  private static func run<T>(
    count: Int, jobs: Int, progress: ((Int) -> Void)?, _ body: @escaping (Int) -> T
  ) -> [T] {
    if jobs <= 1 || count <= 1 {
      var out: [T] = []
      out.reserveCapacity(count)
      for i in 0..<count {
        out.append(body(i))
        progress?(i + 1)
      }
      return out
    }
    let state = SharedResults<T>(count: count, body: body, progress: progress)
    let workers = min(jobs, count)
    let finished = DispatchGroup()
    let onMain = Thread.isMainThread
    for _ in 0..<workers {
      finished.enter()
      let thread = Thread {
        state.drain()
        // The last worker out stops the main run loop (below) from inside it, and only while it
        // runs there: a stop that found no loop running would end the next one at once.
        if state.finishWorker(of: workers) && onMain {
          DispatchQueue.main.async { if state.mainLoopRuns { CFRunLoopStop(CFRunLoopGetMain()) } }
        }
        finished.leave()
      }
      // Simulations recurse little, but scenario reactions and large traces like room.
      thread.stackSize = 8 << 20
      thread.start()
    }
    if onMain { serveMainRunLoop(until: state, finishes: workers) }
    finished.wait()
    return state.results()
  }

  /// Runs the main run loop until every worker is out. It runs until stopped (or a timeout, to
  /// look again) rather than returning after each block: each return and re-entry armed and
  /// cancelled a timer, which cost more than the app's main-queue blocks (`bgsim bench explore`).
  private static func serveMainRunLoop<T>(until state: SharedResults<T>, finishes workers: Int) {
    #if canImport(Darwin)
      let mode = CFRunLoopMode.defaultMode
    #else
      let mode = kCFRunLoopDefaultMode
    #endif
    state.mainLoopRuns = true
    while !state.allFinished(of: workers) { _ = CFRunLoopRunInMode(mode, 0.25, false) }
    state.mainLoopRuns = false
  }
}

/// The job counter, the result slots and the workers' count, behind one lock.
///
/// `@unchecked Sendable` is sound because every access to the mutable state holds `lock`, and
/// `body` and `progress` are called as `ParallelRunner`'s callers allow (`@Sendable`, or values
/// only read while the workers run); `mainLoopRuns` is set and read on the main thread only.
private final class SharedResults<T>: @unchecked Sendable {
  private let lock = NSLock()
  private let body: (Int) -> T
  private let progress: ((Int) -> Void)?
  private var next = 0
  private var done = 0
  private var finishedWorkers = 0
  private var slots: [T?]
  var mainLoopRuns = false

  init(count: Int, body: @escaping (Int) -> T, progress: ((Int) -> Void)?) {
    slots = Array(repeating: nil, count: count)
    self.body = body
    self.progress = progress
  }

  /// Runs jobs until every job has been handed out.
  func drain() {
    while let i = claim() {
      let result = body(i)
      store(result, at: i)
    }
  }

  /// The next job index, or nil when every job has been handed out.
  private func claim() -> Int? {
    lock.withLock {
      guard next < slots.count else { return nil }
      defer { next += 1 }
      return next
    }
  }

  /// Stores a result and reports how many are done, under the lock so reports never interleave.
  private func store(_ value: T, at index: Int) {
    lock.withLock {
      slots[index] = value
      done += 1
      progress?(done)
    }
  }

  /// Counts a worker out; true for the last of `count`.
  func finishWorker(of count: Int) -> Bool {
    lock.withLock {
      finishedWorkers += 1
      return finishedWorkers == count
    }
  }

  /// Whether all of `count` workers are out.
  func allFinished(of count: Int) -> Bool {
    lock.withLock { finishedWorkers == count }
  }

  func results() -> [T] {
    lock.withLock {
      slots.map { slot in
        guard let slot else { preconditionFailure("internal inconsistency: a job produced no result") }
        return slot
      }
    }
  }
}
