import SimKernel

/// The engine's state: every component, owned here and nowhere else.
///
/// `Simulation` is the interpreter around it (the run loop, the trace, the effects, the only code
/// that calls the app) and keeps none of this state itself. A rule (`Rules/`) reads and changes
/// these components and appends effects; a rule's table test builds an `Engine` with no
/// `Simulation` at all.
///
/// Stored state is `@exclusivity(unchecked)`: the engine runs on one thread at a time, and app
/// code runs only between component changes, never inside one, so the runtime check at every
/// access would guard nothing and cost about a fifth of a run.
final class Engine {
  /// The knobs the run follows.
  let policy: Policy
  /// The device's network and power over time.
  let deviceModel: DeviceModel
  /// The server's resources, changes and faults.
  let serverModel: ServerModel
  /// A fault injected by a test (`EngineFaultInjection`, read once as the engine is made); nil
  /// in the product.
  let injectedFault = EngineFaultInjection.fault
  /// Simulated time and the events due at each instant.
  @exclusivity(unchecked) var scheduler = Scheduler<EngineEvent>()
  /// Network, power, the shared links and the server.
  @exclusivity(unchecked) var links: Links
  /// Every task's parts (phase, bytes, record, authentication), indexed by `uid`; rules change a
  /// task here (`tasks[task].machine...`), and the app's `SimURLSessionTask` handle reads it.
  let tasks = TaskTable()
  /// Task handles, session records, wait queues, connection counts, resume data.
  @exclusivity(unchecked) var daemon = Daemon()
  /// The app's process state (running, suspended, terminated; force quit).
  @exclusivity(unchecked) var lifecycle = AppLifecycle()
  /// The per-app resume rate limiter, beside `Admission`.
  @exclusivity(unchecked) var rateLimiter: RateLimiter
  /// The wake in progress and the completion-handler contract.
  @exclusivity(unchecked) var wakes = WakeContract()
  /// The app's background-task assertions and their time budget.
  @exclusivity(unchecked) var assertions = BackgroundAssertions()
  /// The app's `BGContinuedProcessingTask`s, running and queued.
  @exclusivity(unchecked) var continued = ContinuedProcessingTasks()
  /// The callback the app is in, and until when its own work keeps it busy.
  @exclusivity(unchecked) var appBusy = AppBusyTime()
  /// The app's extensions' processes (`AppExtensions.swift`).
  @exclusivity(unchecked) var extensions = ExtensionProcesses()
  /// Conditions drawn during the run, and the next change of each (`ConditionStream`).
  @exclusivity(unchecked) var conditions = ConditionStreams()
  /// Admission's inputs as a pass last saw them, and the numbers of their groups, bumped at each
  /// change (`admissionEpochs()`), as the wait queues' runs of known-blocked tasks record them.
  @exclusivity(unchecked) var lastAdmissionInputs: AdmissionInputs?
  @exclusivity(unchecked) var admissionInputEpochs = AdmissionEpochs()
  /// True while the invariant checker runs (`Simulation.checksInvariants` sets it): rules append
  /// `.observe` effects only then, so a run without the checker pays nothing for them.
  @exclusivity(unchecked) var observing = false

  init(policy: Policy, device: DeviceModel, server: ServerModel) {
    self.policy = policy
    self.deviceModel = device
    self.serverModel = server
    self.links = Links(server: server)
    self.rateLimiter = RateLimiter(policy: policy.rateLimiter)
    daemon.filesActiveByHost = links.server.indexesFaults
  }

  /// The current simulated time.
  var now: SimTime { scheduler.now }
}
