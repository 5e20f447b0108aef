import Foundation

/// Runs work items on worker threads, each item on one thread, and gives the results in the
/// items' order: the result never depends on how many workers there are.
enum Workers {
  static func map<Item, Result>(_ items: [Item], jobs: Int, _ work: @escaping (Item) -> Result) -> [Result] {
    if jobs <= 1 || items.count <= 1 { return items.map(work) }
    let state = Shared<Item, Result>(items: items, work: work)
    let workers = min(jobs, items.count)
    let done = DispatchSemaphore(value: 0)
    for _ in 0..<workers {
      let thread = Thread {
        state.drain()
        done.signal()
      }
      thread.stackSize = 8 << 20
      thread.start()
    }
    for _ in 0..<workers {
      // The bridge runs app code on the main queue: a waiting main thread must keep serving it.
      if Thread.isMainThread {
        while done.wait(timeout: .now()) == .timedOut {
          _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.005))
        }
      } else {
        done.wait()
      }
    }
    return state.results.map { $0! }
  }

  /// The queue of items and the results, behind one lock.
  private final class Shared<Item, Result>: @unchecked Sendable {
    let items: [Item]
    let work: (Item) -> Result
    var results: [Result?]
    private var next = 0
    private let lock = NSLock()

    init(items: [Item], work: @escaping (Item) -> Result) {
      self.items = items
      self.work = work
      results = Array(repeating: nil, count: items.count)
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
