import CoreFoundation
import Dispatch
import Foundation

/// Runs app code and waits for the work it queued, so that simulated time never moves while the
/// app still has something to do (foundation-bridge.md, "Determinism").
///
/// Cost matters: this runs around every delegate call (`bgsim bench bridge`). From the main
/// thread one delegate call costs one hand-off to the delegate queue's thread and one pass of the
/// main run loop when the app queued nothing; other threads pay a few more hops to the main queue.
enum QueueDrain {
  /// Passes made at least off the main thread, so a block the main queue runs that queues one more
  /// main block is still waited for (`DispatchQueue.main.sync {}` waits for one level at a time);
  /// on the main thread the run loop reports whether it ran anything, so one idle pass is enough.
  /// At most `maximumPasses`, so an app that requeues forever cannot hang the run.
  static let minimumPassesOffMain = 3
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
    MainThread.isCurrent || DispatchQueue.getSpecific(key: mainQueueKey) == true
  }

  /// Runs `work` on the main thread, as UIKit runs an app delegate's methods: directly when
  /// already there, otherwise by a synchronous hop to the main queue.
  static func onMain(_ work: () -> Void) {
    if MainThread.isCurrent {
      work()
    } else {
      DispatchQueue.main.sync(execute: work)
    }
  }

  /// Waits for `queues` (and their `underlyingQueue`s) and for the main queue, repeating until a
  /// pass adds no work: `activity` counts the app's calls into the bridge, and the operation
  /// count covers work the app queued on the queues themselves. Returns false when it gave up.
  @discardableResult
  static func drain(_ queues: () -> [Target], mainActor: Bool = false, activity: () -> Int) -> Bool {
    // A block on an `underlyingQueue` that queues another one there is seen one level per pass.
    let nested = !MainThread.isCurrent || queues().contains { $0.underlying != nil }
    let minimum = nested ? minimumPassesOffMain : 1
    var passes = 0
    var before = activity()
    while passes < maximumPasses {
      passes += 1
      // Whether app code may have run in this pass (and queued operations after the looks).
      var ranAppCode = false
      for target in queues() {
        if target.pending > 0 || target.queue.isSuspended {
          run(nil, on: target.queue, loop: target.loop)
          ranAppCode = true
        } else if let underlying = target.underlying {
          // Blocks the app put there itself (`queue.async` in a public method) are not operations:
          // only waiting behind them on the queue sees them.
          waitBehind(underlying)
          ranAppCode = true
        }
      }
      if drainMain() { ranAppCode = true }
      if mainActor {
        drainMainActor()
        ranAppCode = true
      }
      let after = activity()
      // When no app code ran, the queues are as the looks above found them: empty.
      let idle = after == before && (!ranAppCode || queues().allSatisfy { $0.pending == 0 })
      before = after
      if idle && passes >= minimum { return true }
    }
    return false
  }

  /// A delegate queue to wait for, with the bridge's delivery loop on it if it has one.
  struct Target {
    var queue: OperationQueue
    var loop: DeliveryLoop?
    /// Operations on the queue other than the delivery loop's.
    var pending: Int { queue.operationCount - (loop?.isAlive == true ? 1 : 0) }
    /// The delegate queue's `underlyingQueue` (not the main queue, drained on its own), marked
    /// so that the app's calls from its blocks are known to come from a drained queue.
    var underlying: DispatchQueue? {
      guard let underlying = queue.underlyingQueue, underlying !== DispatchQueue.main else { return nil }
      if underlying.getSpecific(key: QueueDrain.drainedQueueKey) == nil {
        underlying.setSpecific(key: QueueDrain.drainedQueueKey, value: true)
      }
      return underlying
    }
  }

  /// Marks the `underlyingQueue`s of delegate queues: their blocks are waited for.
  static let drainedQueueKey = DispatchSpecificKey<Bool>()

  /// True in a block of a queue the bridge drains: the main queue, a delegate queue's
  /// `underlyingQueue` (or a queue that targets one).
  static var isOnDrainedDispatchQueue: Bool {
    isOnMainQueue || DispatchQueue.getSpecific(key: drainedQueueKey) == true
  }

  /// Lets every block on the main queue run, and the blocks those queue, until it is empty.
  /// False when it knows nothing ran.
  @discardableResult
  static func drainMain() -> Bool {
    guard MainThread.isCurrent else {
      DispatchQueue.main.sync {}
      return true
    }
    // Linux: no pass when nothing woke the main queue (the usual case after a delegate call).
    // Blocks `RunLoop.main.perform` queued, and run-loop timers, then wait for a pass that runs
    // for a main-queue block, or for the test's own run loop.
    if let wakeUp = MainQueueWakeUp.shared, !wakeUp.isPending { return false }
    #if canImport(Darwin)
      let mode = CFRunLoopMode.defaultMode
    #else
      let mode = kCFRunLoopDefaultMode
    #endif
    // One pass of the main run loop serves the main queue one level deep and says whether it
    // handled anything (kCFRunLoopRunHandledSource, 4 on every platform) or nothing (timed out).
    for _ in 0..<maximumPasses where CFRunLoopRunInMode(mode, 0, true).rawValue != 4 { break }
    return true
  }

  /// Waits for the jobs the main actor had queued (a `Task { @MainActor in ... }` the app
  /// started): a job of the bridge's own queued behind them must run first.
  static func drainMainActor() {
    // Inside a main-queue block (a simulation run from main-actor code) the probe could not run
    // before this block returns.
    guard MainThread.isCurrent || !isOnMainQueue else { return }
    let done = HandOff.makeSignal()
    // The lowest priority: a job queued earlier must not be overtaken by this one.
    Task(priority: .background) { @MainActor in done.signal() }
    let deadline = DispatchTime.now() + .seconds(5)
    guard MainThread.isCurrent else { return _ = done.wait(until: deadline) }
    while !done.wait(until: .now()) && DispatchTime.now() < deadline {
      _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.001))
    }
  }

  /// How long a task the clock woke may stay silent before the bridge takes it as done.
  static let quietAfterWake: TimeInterval = 0.002

  /// Waits `seconds` of real time, turning the main run loop when on the main thread.
  static func pause(_ seconds: TimeInterval) {
    guard MainThread.isCurrent else { return _ = usleep(UInt32(seconds * 1_000_000)) }
    _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: seconds))
  }

  /// How long app code on a delegate queue runs with the main queue held back. Past it the bridge
  /// assumes the code waits for the main queue (`DispatchQueue.main.sync`, seed 001) and lets
  /// the main queue run alongside it: only then can ordering depend on real time.
  static let mainQueueHold: DispatchTimeInterval = .milliseconds(50)

  /// Runs `work` (or nothing) on `queue` after every operation queued before it, and waits for
  /// it. The main queue is held back meanwhile, so a block the app sends to it from a delegate
  /// method runs after that method returned, as deterministically as the app's code allows.
  /// In the `loop` when the bridge made the queue, else an operation on a serial queue (either
  /// way `OperationQueue.current` is the delegate queue, as in Foundation); a barrier on a
  /// concurrent one, to come after what is queued. `meanwhile` runs on this thread once `work`
  /// is handed over, before the wait: bridge work that must not touch what the app can see;
  /// then some of `spare`'s objects are released.
  static func run(
    _ work: (@Sendable () -> Void)?, on queue: OperationQueue, loop: DeliveryLoop? = nil,
    meanwhile: (() -> Void)? = nil, spare: DeferredRelease? = nil
  ) {
    // Every path below waits until `done` is signalled, so it goes back empty.
    let done = HandOff.takeSignal()
    defer { HandOff.giveBack(done) }
    // Hands the call over, and lets a queue the app suspended run it. `isSuspended` is asked
    // before the hand-over: while the call runs, the delegate queue's thread takes the queue's
    // lock, and meeting it there puts this thread to sleep.
    let enqueue = {
      let suspended = queue.isSuspended
      defer { if suspended { queue.isSuspended = false } }
      if let loop, let work {
        loop.submit(work, then: done)
      } else {
        // Waiting for the queue itself: the loop steps aside for what is queued behind it.
        loop?.stop()
        // Made here only: the loop's path (every delegate call) needs no closure of its own.
        let block: @Sendable () -> Void = {
          work?()
          done.signal()
        }
        if queue.maxConcurrentOperationCount == 1 {
          queue.addOperation(block)
        } else {
          queue.addBarrierBlock(block)
        }
      }
    }
    if MainThread.isCurrent {
      // Blocking here holds the main queue back; spin the run loop once the hold is over so
      // that `DispatchQueue.main.sync` from the delegate queue cannot deadlock.
      enqueue()
      meanwhile?()
      spare?.releaseSome()
      if !done.wait(until: .now() + mainQueueHold) {
        while !done.wait(until: .now()) {
          _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.001))
        }
      }
    } else {
      let engaged = DispatchSemaphore(value: 0)
      let release = DispatchSemaphore(value: 0)
      DispatchQueue.main.async {
        engaged.signal()
        _ = release.wait(timeout: .now() + mainQueueHold)
      }
      engaged.wait()
      enqueue()
      meanwhile?()
      spare?.releaseSome()
      done.wait()
      release.signal()
    }
    if let underlying = queue.underlyingQueue, underlying !== DispatchQueue.main { waitBehind(underlying) }
  }

  /// Waits until every block queued on `queue` before now has run. On the main thread it keeps
  /// the main run loop turning after `mainQueueHold`, so a block that waits for the main queue
  /// (`DispatchQueue.main.sync`) cannot deadlock.
  static func waitBehind(_ queue: DispatchQueue) {
    guard MainThread.isCurrent else { return queue.sync(flags: .barrier) {} }
    let done = HandOff.makeSignal()
    queue.async(flags: .barrier) { done.signal() }
    if !done.wait(until: .now() + mainQueueHold) {
      while !done.wait(until: .now()) {
        _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.001))
      }
    }
  }
}
