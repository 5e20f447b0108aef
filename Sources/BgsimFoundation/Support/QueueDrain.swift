import Dispatch
import Foundation

/// Runs app code and waits for the work it queued, so that simulated time never moves while the
/// app still has something to do (foundation-bridge.md, "Determinism").
enum QueueDrain {
  /// Passes made at least, so a block the main queue runs that queues one more main block is
  /// still waited for; and at most, so an app that requeues forever cannot hang the run.
  static let minimumPasses = 3
  static let maximumPasses = 200

  /// Marks the main queue, whose blocks libdispatch may run on another thread while that thread
  /// waits for it with `DispatchQueue.main.sync` (as the drain does off the main thread).
  private static let mainQueueKey: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
  }()

  /// True on the main thread or in a block of the main queue.
  static var isOnMainQueue: Bool {
    Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueKey) == true
  }

  /// Runs `work` on the main thread, as UIKit runs an app delegate's methods: directly when
  /// already there, otherwise by a synchronous hop to the main queue.
  static func onMain(_ work: () -> Void) {
    if Thread.isMainThread {
      work()
    } else {
      DispatchQueue.main.sync(execute: work)
    }
  }

  /// Waits for `queues` (and their `underlyingQueue`s) and for the main queue, repeating until a
  /// pass adds no work: `activity` counts the app's calls into the bridge, and the operation
  /// count covers work the app queued on the queues themselves. Returns false when it gave up.
  @discardableResult
  static func drain(_ queues: () -> [OperationQueue], activity: () -> Int) -> Bool {
    var passes = 0
    var before = activity()
    while passes < maximumPasses {
      passes += 1
      for queue in queues() { wait(for: queue) }
      drainMain()
      let after = activity()
      let idle = after == before && queues().allSatisfy { $0.operationCount == 0 }
      before = after
      if idle && passes >= minimumPasses { return true }
    }
    return false
  }

  /// Lets every block already on the main queue run.
  static func drainMain() {
    if Thread.isMainThread {
      // The main run loop services the main queue.
      _ = RunLoop.main.run(mode: .default, before: Date())
    } else {
      DispatchQueue.main.sync {}
    }
  }

  /// How long app code on a delegate queue runs with the main queue held back. Past it the bridge
  /// assumes the code waits for the main queue (`DispatchQueue.main.sync`, seed 001) and lets
  /// the main queue run alongside it: only then can ordering depend on real time.
  static let mainQueueHold: DispatchTimeInterval = .milliseconds(50)

  /// Runs the operations of `queue` (queued while it was suspended) to the end. The main queue
  /// is held back meanwhile, so a block the app sends to it from a delegate method runs after
  /// that method returned, as deterministically as the app's code allows.
  private static func wait(for queue: OperationQueue) {
    if queue.operationCount == 0 {
      // Nothing queued: no need to hold the main queue back (this saves two thread hops a pass).
    } else if Thread.isMainThread {
      // Blocking here holds the main queue back; spin the run loop once the hold is over so
      // that `DispatchQueue.main.sync` from the delegate queue cannot deadlock.
      let done = DispatchSemaphore(value: 0)
      queue.addBarrierBlock { done.signal() }
      queue.isSuspended = false
      if done.wait(timeout: .now() + mainQueueHold) == .timedOut {
        while done.wait(timeout: .now()) == .timedOut {
          _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.001))
        }
      }
      queue.waitUntilAllOperationsAreFinished()
    } else {
      let engaged = DispatchSemaphore(value: 0)
      let release = DispatchSemaphore(value: 0)
      DispatchQueue.main.async {
        engaged.signal()
        _ = release.wait(timeout: .now() + mainQueueHold)
      }
      engaged.wait()
      queue.isSuspended = false
      queue.waitUntilAllOperationsAreFinished()
      release.signal()
    }
    if let underlying = queue.underlyingQueue, underlying !== DispatchQueue.main { underlying.sync {} }
  }
}
