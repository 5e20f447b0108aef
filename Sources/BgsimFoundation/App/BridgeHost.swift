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
  /// Tasks made and not yet resumed, for the `taskNeverResumed` lint.
  let neverResumed = NeverResumedTasks()
  /// Background session identifiers each launch created, for the identifier-change lint.
  var identifiersByLaunch: [Int: [String]] = [:]
  var identifierChangeLinted = false
  private var deliveries = 0
  /// Delegate calls made on the simulation's thread (`bgsim bench bridge` divides by it).
  var delegateCalls = 0

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

  /// Counts an app call into the bridge; a call from a thread the bridge is not waiting on
  /// while simulated time moves (a real thread, `asyncAfter` on wall-clock time, a queue the
  /// bridge does not drain) is linted once per run, since its timing is not deterministic.
  func noteActivity() {
    let draining = process?.isDraining ?? false
    let foreign = runThread != nil && Thread.current !== runThread
    // While the bridge waits for app code, calls may come from the main thread and the delegate
    // queues; any other thread (a global queue's `asyncAfter`, a thread the app started) is foreign.
    let foreignWhileDraining =
      draining && foreign && !QueueDrain.isOnMainQueue && !(process?.isOnDelegateQueue ?? false)
    activityLock.lock()
    activityCount &+= 1
    let lintNow = !undrainedCallLinted && ((!draining && foreign) || foreignWhileDraining)
    if lintNow { undrainedCallLinted = true }
    activityLock.unlock()
    if lintNow {
      lintUndrainedCall(
        "the app called URLSession from a thread or queue the simulation does not wait for (a thread it "
          + "started, DispatchQueue.asyncAfter on wall-clock time), while simulated time moved; call it from "
          + "the delegate queue, the main queue or a delegate method, and use SimulatedApplication.after for delays"
      )
    }
  }

  /// A call on a session or application object of a process that has ended: code that outlived
  /// its process (a real thread, `asyncAfter` on wall-clock time) reached the bridge.
  func noteCallFromDeadProcess() {
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
