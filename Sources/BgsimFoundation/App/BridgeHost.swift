import Foundation
import SimKernel
import TransferEngine

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The bridge's side of a simulation: makes a fresh process (the engine's app object) at every
/// launch, owns the container, and keeps the state that outlives processes (resume data
/// produced, session identifiers seen).
final class BridgeHost: @unchecked Sendable {
  weak var simulation: Simulation?
  let makeDelegate: (SimulatedApplication) -> SimulatedAppDelegate
  let container: AppContainer
  /// The live process, nil while the app is not running (the engine owns it).
  private(set) weak var process: BridgeProcess?
  private var launches = 0
  /// Counts the app's calls into the bridge; the drain repeats while it moves.
  private let activityLock = NSLock()
  private var activityCount = 0
  let resumeStore = ResumeStore()
  /// Where requests of the `async` methods meet `Simulation.run(awaiting:)`.
  let asyncMeeting = AsyncMeeting()
  /// Where delivered files went, for the `fileOutsideContainer` lint.
  let filesOutside = FilesOutsideContainer()
  /// The request each task was made with, for the task objects of later processes.
  let originalRequests = OriginalRequests()
  /// Tasks made and not yet resumed, for the `taskNeverResumed` lint.
  let neverResumed = NeverResumedTasks()
  /// Dead processes' task objects, released while the simulation's thread waits for the app.
  let deferredRelease = DeferredRelease()
  /// Background session identifiers each launch created, for the identifier-change lint.
  var identifiersByLaunch: [Int: [WrittenKey]] = [:]
  var identifierChangeLinted = false
  private var deliveries = 0
  /// Delegate calls made on the simulation's thread (`bgsim bench bridge` divides by it).
  var delegateCalls = 0
  /// Properties already linted `wallClockDate` in this run.
  var wallClockDatesLinted: Set<String> = []

  init(
    simulation: Simulation, container: AppContainer,
    makeDelegate: @escaping (SimulatedApplication) -> SimulatedAppDelegate
  ) {
    self.simulation = simulation
    self.container = container
    self.makeDelegate = makeDelegate
  }

  var activity: Int {
    activityLock.lock()
    defer { activityLock.unlock() }
    return activityCount
  }

  /// The thread the simulation runs on, as last seen entering the bridge from the engine.
  var runThread: Thread?
  private var undrainedCallLinted = false

  /// How many test callbacks (`Simulation.schedule`) are running or being waited for.
  private var outsideCodeDepth = 0

  /// Runs a test's callback (a user action) and then waits for the work it queued on the live
  /// process's queues, before simulated time moves (`Simulation.outsideCodeRunner`).
  func runOutsideCode(_ body: () -> Void) {
    activityLock.lock()
    outsideCodeDepth += 1
    activityLock.unlock()
    body()
    process?.settleAfterOutsideCode()
    activityLock.lock()
    outsideCodeDepth -= 1
    activityLock.unlock()
  }

  /// Counts an app call into the bridge and lints the calls whose timing is not deterministic,
  /// once per run each:
  /// - from a queue the bridge drains (the main queue, a delegate queue, its `underlyingQueue`)
  ///   while the bridge waits for nothing and simulated time moves: nothing simulated caused it,
  ///   so a real-time timer did (`wallClockTimer`);
  /// - from any other thread (one the app started, a global queue's `asyncAfter`) while
  ///   simulated time moves or while the bridge waits (`callFromUndrainedQueue`).
  func noteActivity(startsASleep: Bool = false) {
    let process = self.process
    let onRunThread = isOnRunThread
    let onDrainedQueue =
      !onRunThread && (QueueDrain.isOnDrainedDispatchQueue || (process?.isOnDelegateQueue ?? false))
    let draining = process?.isDraining ?? false
    let running = simulation?.isRunning ?? false
    activityLock.lock()
    activityCount &+= 1
    let waiting = draining || outsideCodeDepth > 0
    // A task the app started, or one the clock just woke, runs on a thread of Swift's own pool.
    let fromTaskWaitedFor = waiting && (startsASleep || clockWindow > 0)
    var rule: LintRule?
    if onRunThread || fromTaskWaitedFor {
      rule = nil
    } else if onDrainedQueue {
      rule = !waiting && running && !unscheduledCodeLinted ? .wallClockTimer : nil
      if rule != nil { unscheduledCodeLinted = true }
    } else if !undrainedCallLinted {
      rule = .callFromUndrainedQueue
      undrainedCallLinted = true
    }
    activityLock.unlock()
    switch rule {
    case .callFromUndrainedQueue?:
      lintUndrainedCall(
        "the app called URLSession from a thread or queue the simulation does not wait for (a thread it "
          + "started, DispatchQueue.asyncAfter on a global queue), while simulated time moved; call it from "
          + "the delegate queue (or its underlyingQueue), the main queue or a delegate method, and use "
          + "SimulatedApplication.after or .clock for delays")
    case .wallClockTimer?:
      simulation?.bridgeLint(
        .wallClockTimer,
        "app code on a queue the simulation drains called URLSession or SimulatedApplication while nothing "
          + "simulated was running (no delegate call, launch, timer or scheduled action): a real-time timer "
          + "(DispatchQueue.asyncAfter, DispatchSourceTimer, Timer) fired, at a simulated time that depends on "
          + "the host's speed; use SimulatedApplication.after or .clock for delays")
    default: break
    }
  }
  private var unscheduledCodeLinted = false
  /// The app made a `SimulatedClock`: its tasks may start on the main actor, whose jobs the
  /// drain then waits for too (one more hand-off per pass, paid only by apps that use the clock).
  private(set) var usesClock = false
  func noteClockUse() { usesClock = true }

  /// Sleepers of `SimulatedClock` woken in the current wait for app code.
  private var clockWindow = 0

  /// A sleeping task is being woken: calls from it count as waited for until the wait ends.
  func openClockWindow() {
    activityLock.lock()
    clockWindow += 1
    activityLock.unlock()
  }

  func closeClockWindow() {
    activityLock.lock()
    clockWindow = 0
    activityLock.unlock()
  }

  /// A call on a session or application object of a process that has ended: code that outlived
  /// its process (a real thread, `asyncAfter` on wall-clock time) reached the bridge.
  func noteCallFromDeadProcess() {
    guard !ProcessRelease.isUnderWay else { return }
    activityLock.lock()
    let lintNow = !undrainedCallLinted
    undrainedCallLinted = true
    activityLock.unlock()
    if lintNow {
      lintUndrainedCall(
        "code of a terminated process called URLSession or SimulatedApplication (a thread it started, "
          + "DispatchQueue.asyncAfter on wall-clock time); on a device it would never run: use "
          + "SimulatedApplication.after for delays")
    }
  }

  private func lintUndrainedCall(_ message: String) {
    simulation?.bridgeLint(.callFromUndrainedQueue, message)
  }

  /// Marks the current thread as the simulation's (every engine call into the bridge does).
  func enteredFromEngine() {
    neverResumed.check(simulation, processEnded: false)
    runThread = Thread.current
    lastEntry = BridgeHost.entryClock.next()
  }

  /// When the engine last entered this bridge, on a process-wide count: of two simulations run
  /// on the same thread, the later one is the one running (`SimulatedApplication.shared`).
  private(set) var lastEntry = 0
  private static let entryClock = EntryClock()

  /// A process-wide counter, locked.
  private final class EntryClock: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func next() -> Int {
      lock.lock()
      defer { lock.unlock() }
      count += 1
      return count
    }
  }

  /// True on the simulation's thread (or before the engine first called the bridge). Elsewhere
  /// the bridge must not wait for a delegate queue: the caller may be that queue's own thread.
  var isOnRunThread: Bool { runThread == nil || Thread.current === runThread }

  /// The delegate of the live process, if the app is running or suspended.
  var currentDelegate: SimulatedAppDelegate? { process?.delegate }

  /// A number for each `didFinishDownloadingTo` temporary folder.
  func nextDeliveryNumber() -> Int {
    deliveries += 1
    return deliveries
  }

  /// The container as the last process left it (see `ContainerSnapshot`).
  private var containerAtDeath: ContainerSnapshot?

  /// A process ended: remember the container as it left it.
  func processEnded() {
    containerAtDeath = ContainerSnapshot(of: container.url)
  }

  /// Before a launch: lints a container that changed while no process was alive.
  private func checkContainerSinceDeath() {
    guard let before = containerAtDeath else { return }
    containerAtDeath = nil
    guard let changed = ContainerSnapshot(of: container.url).firstChange(since: before) else { return }
    simulation?.bridgeLint(
      .writeAfterTermination,
      "'\(changed)' in the app's container changed while the app was not running: code of a terminated "
        + "process (a thread it started, DispatchQueue.asyncAfter on wall-clock time) wrote it, which cannot "
        + "happen on a device; use SimulatedApplication.after for delays and save state before returning",
      [TraceField("path", .string(changed))])
  }

  /// A new process for a launch; the engine holds it (as its app) until the process ends.
  func newProcess() -> BridgeProcess {
    checkContainerSinceDeath()
    launches += 1
    let process = BridgeProcess(host: self, number: launches)
    self.process = process
    return process
  }
}

/// Carries a non-Sendable value into a block the bridge runs while the simulation waits for it.
struct UncheckedBox<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
