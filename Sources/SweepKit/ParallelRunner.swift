import Foundation

/// Runs independent jobs on worker threads, one job (one simulation) per worker at a time.
///
/// Workers take the next job index from a shared counter, so long and short runs balance out;
/// each result goes into the slot of its job index, so the returned order never depends on
/// scheduling: `jobs: 8` returns exactly what `jobs: 1` does, provided `body` is deterministic.
public enum ParallelRunner {
  /// Calls `body(i)` for every `i` in `0..<count` on `jobs` threads (1 runs on the calling
  /// thread) and returns the results by index. `progress(done)` is called after each job
  /// completes, one call at a time, with the number completed so far.
  public static func map<T: Sendable>(
    count: Int, jobs: Int, progress: (@Sendable (Int) -> Void)? = nil, _ body: @escaping @Sendable (Int) -> T
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
    let state = SharedResults<T>(count: count)
    let workers = min(jobs, count)
    let finished = DispatchGroup()
    for _ in 0..<workers {
      finished.enter()
      let thread = Thread {
        while let i = state.claim() {
          let result = body(i)
          state.store(result, at: i, progress: progress)
        }
        finished.leave()
      }
      // Simulations recurse little, but scenario reactions and large traces like room.
      thread.stackSize = 8 << 20
      thread.start()
    }
    finished.wait()
    return state.results()
  }
}

/// The job counter and the result slots, behind one lock.
///
/// `@unchecked Sendable` is sound because every access to the mutable state holds `lock`.
private final class SharedResults<T: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var next = 0
  private var done = 0
  private var slots: [T?]

  init(count: Int) { slots = Array(repeating: nil, count: count) }

  /// The next job index, or nil when every job has been handed out.
  func claim() -> Int? {
    lock.withLock {
      guard next < slots.count else { return nil }
      defer { next += 1 }
      return next
    }
  }

  /// Stores a result and reports how many are done, under the lock so reports never interleave.
  func store(_ value: T, at index: Int, progress: (@Sendable (Int) -> Void)?) {
    lock.withLock {
      slots[index] = value
      done += 1
      progress?(done)
    }
  }

  func results() -> [T] {
    lock.withLock {
      slots.map { slot in
        guard let slot else { preconditionFailure("internal inconsistency: a sweep job produced no result") }
        return slot
      }
    }
  }
}
