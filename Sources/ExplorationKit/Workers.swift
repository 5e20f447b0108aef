import CoreFoundation
import Foundation

/// Runs work items on worker threads, each item on one thread, and gives the results in the
/// items' order: the result never depends on how many workers there are.
enum Workers {
  static func map<Item, Result>(_ items: [Item], jobs: Int, _ work: @escaping (Item) -> Result) -> [Result] {
    if jobs <= 1 || items.count <= 1 { return items.map(work) }
    let state = Shared<Item, Result>(items: items, work: work)
    let workers = min(jobs, items.count)
    let done = DispatchSemaphore(value: 0)
    let onMain = Thread.isMainThread
    for _ in 0..<workers {
      let thread = Thread {
        state.drain()
        // The last worker out stops the main run loop (below) from inside it, and only while
        // it runs there: a stop that found no loop running would end the next one at once.
        if state.finishWorker(of: workers) && onMain {
          DispatchQueue.main.async { if state.mainLoopRuns { CFRunLoopStop(CFRunLoopGetMain()) } }
        }
        done.signal()
      }
      thread.stackSize = 8 << 20
      thread.start()
    }
    // The bridge runs app code on the main queue: a waiting main thread must keep serving it.
    // The run loop runs until stopped (or a timeout, to look again) rather than returning after
    // each block: each return and re-entry armed and cancelled a timer, which cost more than
    // the app's main-queue blocks themselves (`bgsim bench explore`).
    if onMain {
      #if canImport(Darwin)
        let mode = CFRunLoopMode.defaultMode
      #else
        let mode = kCFRunLoopDefaultMode
      #endif
      state.mainLoopRuns = true
      while !state.allFinished(of: workers) { _ = CFRunLoopRunInMode(mode, 0.25, false) }
      state.mainLoopRuns = false
    }
    for _ in 0..<workers { done.wait() }
    return state.results.map { $0! }
  }

  /// The queue of items and the results, behind one lock.
  private final class Shared<Item, Result>: @unchecked Sendable {
    let items: [Item]
    let work: (Item) -> Result
    var results: [Result?]
    private var next = 0
    private var finishedWorkers = 0
    /// Set and read on the main thread only: whether `map` runs the main run loop.
    var mainLoopRuns = false
    private let lock = NSLock()

    init(items: [Item], work: @escaping (Item) -> Result) {
      self.items = items
      self.work = work
      results = Array(repeating: nil, count: items.count)
    }

    /// Counts a worker out; true for the last of `count`.
    func finishWorker(of count: Int) -> Bool {
      lock.lock()
      defer { lock.unlock() }
      finishedWorkers += 1
      return finishedWorkers == count
    }

    /// Whether all of `count` workers are out.
    func allFinished(of count: Int) -> Bool {
      lock.lock()
      defer { lock.unlock() }
      return finishedWorkers == count
    }

    func drain() {
      while true {
        lock.lock()
        let index = next
        next += 1
        lock.unlock()
        guard index < items.count else { return }
        let result = work(items[index])
        lock.lock()
        results[index] = result
        lock.unlock()
      }
    }
  }
}
