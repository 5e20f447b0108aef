import Foundation
import SimKernel
import TransferEngine

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One launch of the app, and the engine's app object for it: its application object, delegate,
/// sessions and timers. The engine drops it when the process ends, and with it every reference
/// the bridge holds to them, as the end of a process does on a device.
final class BridgeProcess: AppUnderTest, @unchecked Sendable {
  weak var host: BridgeHost?
  let number: Int
  var application: SimulatedApplication?
  var delegate: SimulatedAppDelegate?
  /// The sessions this process made, in creation order (their delegate queues are drained).
  private(set) var sessions: [BridgedSession] = []
  /// The sessions' delegate queues as the drain waits for them, each once, in the order of the
  /// first session on it: kept rather than made at each of the drain's several looks per delegate
  /// call, and one look for a queue many sessions share (a look per session made every call cost
  /// the number of sessions).
  private var drainTargets: [QueueDrain.Target] = []
  /// The delegate queues of `drainTargets`, for `isOnDelegateQueue`.
  private var delegateQueues: Set<ObjectIdentifier> = []
  /// Due times of this process's timers not yet run (late ones included), for `pendingAppTimers`.
  /// Counted by instant: a timer that runs finds its own in one step, however many are pending.
  private var pendingTimerDueCounts: [SimTime: Int] = [:]
  /// Due times of this process's timers not yet run, in order, each as many times as it is due.
  var pendingTimerDues: [SimTime] {
    pendingTimerDueCounts.sorted { $0.key < $1.key }.flatMap { repeatElement($0.key, count: $0.value) }
  }
  /// How many waits for app code are under way (work posted meanwhile is picked up by them).
  private var drainDepth = 0
  var isDraining: Bool { drainDepth > 0 }

  init(host: BridgeHost, number: Int) {
    self.host = host
    self.number = number
  }

  /// The host while this process is the live one.
  var liveHost: BridgeHost? { host?.process === self ? host : nil }
  var isDead: Bool { liveHost == nil }

  deinit {
    host?.neverResumed.check(host?.simulation, processEnded: true)
    // Released here, not after: the app's objects' `deinit`s (a manager calling
    // `invalidateAndCancel()`) then run while the release is known to be under way.
    let release = host?.deferredRelease
    ProcessRelease.during {
      for session in sessions { session.processDied(releasingTasksTo: release) }
      delegate = nil
      application = nil
      sessions = []
      drainTargets = []
      delegateQueues = []
      sleepLock.lock()
      let asleep = sleepers + unscheduledSleepers
      sleepers = []
      unscheduledSleepers = []
      sleepLock.unlock()
      for sleeper in asleep { sleeper.cancel() }
    }
    host?.processEnded()
  }

  /// True on an operation of one of this process's sessions' delegate queues.
  var isOnDelegateQueue: Bool {
    guard let current = OperationQueue.current else { return false }
    return delegateQueues.contains(ObjectIdentifier(current))
  }

  // MARK: AppUnderTest

  func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
    guard let host else { return }
    host.enteredFromEngine()
    let application = SimulatedApplication(
      process: self, launchReason: reason, containerDirectory: host.container.url)
    self.application = application
    host.container.ensureTemporaryDirectory()
    enter {
      let delegate = host.makeDelegate(application)
      self.delegate = delegate
      delegate.applicationDidFinishLaunching(application)
    }
  }

  func handleEventsForBackgroundURLSession(
    _ app: AppContext, identifier: String, completionHandler: BackgroundCompletionHandler
  ) {
    guard let host, let application else { return }
    host.enteredFromEngine()
    let handler = UncheckedBox(completionHandler)
    enter {
      delegate?.application(application, handleEventsForBackgroundURLSession: identifier) { [weak host] in
        host?.noteActivity()
        handler.value()
      }
    }
  }

  func willEnterForeground(_ app: AppContext) {
    guard let application else { return }
    host?.enteredFromEngine()
    enter { delegate?.applicationWillEnterForeground(application) }
  }

  func didEnterBackground(_ app: AppContext) {
    guard let application else { return }
    host?.enteredFromEngine()
    enter { delegate?.applicationDidEnterBackground(application) }
  }

  /// Runs app code now, on the main thread, then waits for everything it queued.
  func enter(_ work: () -> Void) {
    guard let host = liveHost else { return }
    drainDepth += 1
    defer { drainDepth -= 1 }
    QueueDrain.onMain { SharedApplicationHosts.runningOnMain(host, work) }
    settle(host)
  }

  /// Runs `work` on `queue` (a session's delegate queue) and waits for everything it queued.
  /// `host` is the live host, which the caller has just read. `meanwhile` runs on this thread
  /// while `work` runs, when the call is waited for.
  func deliver(
    on queue: OperationQueue, loop: DeliveryLoop?, host: BridgeHost, meanwhile: (() -> Void)? = nil,
    _ work: @escaping () -> Void
  ) {
    // An engine callback caused by app code inside a wait: that wait picks this up. From another
    // thread (code the bridge did not wait for), queued without waiting: that thread may be the
    // delegate queue's own.
    if isDraining || !host.isOnRunThread { return queue.addOperation(UncheckedBox(work).run) }
    // Draining from before the call until its settle ends: a block the call queued on the main
    // queue may run on another thread as soon as the call returns, and must not find a gap.
    drainDepth += 1
    defer { drainDepth -= 1 }
    // Few loops keep a thread between calls, across simulations (`ParkedLoops`).
    if let loop { ParkedLoops.shared.keep(loop) }
    QueueDrain.run(
      UncheckedBox(work).sendable, on: queue, loop: loop, meanwhile: meanwhile, spare: host.deferredRelease)
    if let loop { ParkedLoops.shared.stopUnlessKept(loop) }
    settle(host)
  }

  /// After a test's callback: waits for what it queued on this process's queues.
  func settleAfterOutsideCode() {
    guard let host = liveHost else { return }
    settle(host)
  }

  private func settle(_ host: BridgeHost) {
    drainDepth += 1
    defer { drainDepth -= 1 }
    let settled = QueueDrain.drain(
      { drainTargets }, mainActor: host.usesClock,
      activity: {
        scheduleSleeps()
        return host.activity
      })
    if !settled {
      host.simulation?.emitNote(
        "lint",
        [
          TraceField("rule", .string(LintRule.callFromUndrainedQueue.rawValue)),
          TraceField(
            "message",
            .string("the app kept queueing work after a delegate call; simulated time moved on without it")),
        ])
    }
  }

  func makeSession(
    configuration: URLSessionConfiguration, delegate: URLSessionDelegate?, delegateQueue: OperationQueue?
  ) -> URLSession {
    host?.noteActivity()
    let session = BridgedSession(
      process: self, configuration: configuration.bridgeCopy(), delegate: delegate,
      delegateQueue: delegateQueue)
    if !isDead {
      sessions.append(session)
      if delegateQueues.insert(ObjectIdentifier(session.delegateQueueForDrain)).inserted {
        drainTargets.append(session.drainTarget)
      }
    }
    return session
  }

  /// An app timer: see `SimulatedApplication.after(_:_:)`.
  func schedule(after delay: TimeInterval, _ work: @escaping () -> Void) {
    guard let host = liveHost, let simulation = host.simulation else {
      host?.noteCallFromDeadProcess()
      return
    }
    host.noteActivity()
    let seconds = delay.isFinite ? min(max(delay, 0), 10 * 365 * 86_400) : 0
    let box = UncheckedBox(work)
    let delay = SimDuration.seconds(rounding: seconds)
    let dueAt = simulation.now + delay
    pendingTimerDueCounts[dueAt, default: 0] += 1
    // The engine's app-timer rule decides when it runs: at `dueAt` if the app runs then, at the
    // next resume if it is suspended, never once its process ended.
    AppContext(simulation: simulation).after(delay) { [weak self] _ in
      guard let self, !self.isDead else { return }
      self.host?.enteredFromEngine()
      if let left = self.pendingTimerDueCounts[dueAt] {
        self.pendingTimerDueCounts[dueAt] = left > 1 ? left - 1 : nil
      }
      self.enter { box.value() }
    }
  }

  // MARK: SimulatedClock

  private let sleepLock = NSLock()
  /// Sleeps registered from any thread, not yet made simulated timers.
  private var unscheduledSleepers: [Sleeper] = []
  /// Sleeps with a simulated timer, until they wake.
  private var sleepers: [Sleeper] = []

  /// A task of this process started `SimulatedClock.sleep` (on any thread): the simulation's
  /// thread makes it a timer at its next step (the drain under way picks it up at once).
  func register(_ sleeper: Sleeper) {
    sleepLock.lock()
    unscheduledSleepers.append(sleeper)
    sleepLock.unlock()
    host?.noteActivity(startsASleep: true)
  }

  /// On the simulation's thread: makes the sleeps registered since simulated timers.
  func scheduleSleeps() {
    sleepLock.lock()
    // The usual case, once per drain pass: no sleep started.
    if unscheduledSleepers.isEmpty { return sleepLock.unlock() }
    let new = unscheduledSleepers
    unscheduledSleepers = []
    sleepers += new
    sleepLock.unlock()
    guard !new.isEmpty else { return }
    guard let host = liveHost, let simulation = host.simulation else { return new.forEach { $0.cancel() } }
    let app = AppContext(simulation: simulation)
    for sleeper in new {
      // An app timer too: it ends at its deadline, or at the next resume if the app is
      // suspended then, and is cancelled with its process.
      app.after(max(sleeper.deadline, simulation.now) - simulation.now) { [weak self] _ in
        guard let self, !self.isDead else { return }
        self.host?.enteredFromEngine()
        self.forgetSleeper(sleeper)
        self.wake([sleeper])
      }
    }
  }

  /// Resumes sleeping tasks, from this thread (not the main queue: a task may resume on the main
  /// actor), then waits for what they queued.
  private func wake(_ due: [Sleeper]) {
    guard let host = liveHost, !due.isEmpty else { return }
    drainDepth += 1
    defer { drainDepth -= 1 }
    host.openClockWindow()
    for sleeper in due { sleeper.wake() }
    // A woken task goes on on its own executor, unseen: the bridge waits until the app has made
    // no call for `quietAfterWake` of real time (microseconds is what such code takes).
    var seen = host.activity
    repeat {
      seen = host.activity
      settle(host)
      QueueDrain.pause(QueueDrain.quietAfterWake)
    } while host.activity != seen
    host.closeClockWindow()
  }

  private func forgetSleeper(_ sleeper: Sleeper) {
    sleepLock.lock()
    sleepers.removeAll { $0 === sleeper }
    sleepLock.unlock()
  }
}

extension UncheckedBox where Value == () -> Void {
  /// The boxed block, as a `@Sendable` block for `OperationQueue`.
  var run: @Sendable () -> Void { { self.value() } }

  /// The boxed block itself, marked `@Sendable` (the same representation) rather than wrapped
  /// in a new closure: a delegate call then allocates and frees one closure less.
  var sendable: @Sendable () -> Void { unsafeBitCast(value, to: (@Sendable () -> Void).self) }
}
