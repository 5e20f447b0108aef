import SimKernel

/// One simulated device running one app against one server: the engine's entry point.
///
/// Single-threaded and deterministic: the same inputs and seed give the same trace. Code outside
/// the engine acts through `schedule(at:_:)` callbacks and the URLSession-like API that
/// `AppContext` hands to the installed `AppUnderTest`.
///
/// The interpreter around `Engine`, in three files: this one (the state the interpreter keeps,
/// the run loop and `handle`, the trace, the public API), `Simulation+Effects.swift` (running a
/// rule and carrying out its effects; the invariant checks) and `Simulation+App.swift` (the
/// app's requests into the engine and every call from the engine into the app). Rules live in
/// `Rules/`, one room per input, and decide; nothing here does.
public final class Simulation {
  /// The knobs the run follows, fixed when the simulation is made.
  public let policy: Policy
  /// The device's network and power over time, and its clock.
  public let deviceModel: DeviceModel
  /// The seed of `random`: the same seed and inputs give the same trace.
  public let seed: UInt64
  /// Everything that happened, in order.
  public var trace: TraceLog { traceLog }
  /// The trace's storage (internal and unchecked: the engine appends to it at every record).
  @exclusivity(unchecked) var traceLog: TraceLog
  /// The run's only randomness, for models and apps that want it.
  public var random: SeededGenerator

  /// Every component's state (`Engine`): this class is its interpreter and holds none of it.
  let engine: Engine
  /// Expiration handlers of the open assertions, by identifier (the app's closures).
  @exclusivity(unchecked) var assertionHandlers: [Int: (AppContext) -> Void] = [:]
  /// Counters the invariants read, beside the engine.
  @exclusivity(unchecked) var checker = InvariantChecker()
  @exclusivity(unchecked) var appProcess = AppProcess()
  /// The live process's app (nil while not running).
  var installedApp: AppUnderTest? { appProcess.live }

  /// The network now.
  public var network: NetworkState { links.network }
  /// The power state now.
  public var power: PowerState { links.power }

  var callbacks: [Int: (Simulation) -> Void] = [:]
  var nextCallback = 0
  /// Runs every `schedule(at:_:)` callback, and an empty body when `run(until:)` starts: code
  /// outside the engine (a test's user action) may have queued app work on real queues, which an
  /// installed bridge (BgsimFoundation) waits for here, before simulated time moves.
  public var outsideCodeRunner: ((_ body: () -> Void) -> Void)?
  /// True while `run(until:)` processes events: simulated time may move.
  public private(set) var isRunning = false
  /// Checked after every event when on (tests and fuzzing); a violation stops the run.
  public var checksInvariants: Bool {
    get { checking }
    set {
      checking = newValue
      engine.observing = newValue
      engine.tasks.noteChanges(newValue)
      engine.daemon.noteQueueChanges(newValue)
    }
  }
  /// `checksInvariants`' storage, read at every event and record.
  @exclusivity(unchecked) var checking = false
  /// The first invariant the run broke, if any (only when `checksInvariants`).
  public internal(set) var invariantViolation: InvariantViolation?
  /// Called once, when an invariant breaks (tests record it as a failure).
  public var onInvariantViolation: ((InvariantViolation) -> Void)?
  /// A fault injected by a test (`EngineFaultInjection`); nil in the product.
  var injectedFault: EngineFault? { engine.injectedFault }
  @exclusivity(unchecked) var stopRequested = false
  /// Engine events handled so far by `run(until:)` (benchmarks divide wall time by it).
  public var processedEvents: Int { meter.events }
  /// The limits that stop a runaway run (`RunBudget`); set before running.
  public var budget: RunBudget {
    get { meter.budget }
    set { meter.budget = newValue }
  }
  /// The budget the run used up, if any: the run stopped there and `run(until:)` does nothing more.
  public internal(set) var budgetExceeded: BudgetExceeded?
  /// Counts events against the budget: one value touched once per event, so the run loop's
  /// bookkeeping stays a few integer operations.
  @exclusivity(unchecked) var meter = RunMeter()
  /// The effect buffers rules reuse (`Simulation+Effects.swift`): one per level of rules running
  /// inside another's effects, so none is allocated again once the run reached its deepest
  /// nesting.
  @exclusivity(unchecked) var spareEffects: [EffectBuffer] = [EffectBuffer()]

  /// The device is gone and the app's process with it. A live session object and its daemon
  /// record hold each other (`attached`, `record`), and the object keeps its delegate (as
  /// `URLSession` does until invalidated), which keeps the object: without this, a run that
  /// ends with the app running would keep its session record and every task after the run, and
  /// a sweep or benchmark would grow by about a megabyte per thousand tasks at every run.
  deinit { daemon.endAppSessions() }

  /// A device at time 0. `conditions` are streams of changes drawn while the run goes (a
  /// scenario's `random` section); more can be added with `addConditionStream(_:)`.
  public init(
    seed: UInt64 = 0, device: DeviceModel = .wifi, server: ServerModel = .init(), policy: Policy = .defaults,
    recordsTrace: Bool = true, conditions: [ConditionStream] = []
  ) {
    self.seed = seed
    self.policy = policy
    self.deviceModel = device
    self.engine = Engine(policy: policy, device: device, server: server)
    self.random = SeededGenerator(seed: seed)
    self.traceLog = TraceLog(isRecording: recordsTrace)
    // Steps at time 0 take effect now, so calls made before `run` (a test's `launchApp()`, a
    // task resumed at once) see the device as it is at time 0, not offline: the network first,
    // then power, each with the streams' changes due at 0 after the device's own steps (the
    // order the same changes listed as device steps would run in).
    for stream in conditions { addConditionStream(stream) }
    for (i, step) in device.network.enumerated() {
      if step.at <= .zero {
        run { NetworkChangeRule.apply(step.value, engine: engine, into: &$0) }
      } else {
        scheduler.schedule(.networkStep(i), at: step.at)
      }
    }
    applyConditionsAtStart { if case .network = $0 { true } else { false } }
    for (i, step) in device.power.enumerated() {
      if step.at <= .zero {
        run { PowerChangeRule.apply(step.value, to: &engine.links, into: &$0) }
      } else {
        scheduler.schedule(.powerStep(i), at: step.at)
      }
    }
    applyConditionsAtStart { if case .power = $0 { true } else { false } }
    for (i, change) in server.changes.enumerated() { scheduler.schedule(.serverChange(i), at: change.at) }
    for (i, fault) in server.faults.enumerated() {
      switch fault {
      case .dropConnection(let at, _, _): scheduler.schedule(.dropFault(i), at: at)
      case .stall(let from, let to, _):
        scheduler.schedule(.stallChange(i), at: from)
        scheduler.schedule(.stallChange(i), at: to)
      case .status: break
      }
    }
  }

  /// The current simulated time.
  public var now: SimTime { scheduler.now }

  /// Redirects followed in a row before a task fails with `httpTooManyRedirects` (-1007)
  /// (`Rules/Transfer/ConnectedRule.swift`).
  public static var maxRedirects: Int { ConnectedRule.maxRedirects }

  /// The device restarts now; the user unlocks it `reboot.unlockAfter` later, or at a `launch`
  /// (`Rules/Device/RebootRule.swift`).
  public func rebootDevice() { run { RebootRule.apply(engine: engine, into: &$0) } }

  /// True between a restart and the first unlock after it.
  public var deviceLockedSinceRestart: Bool { links.lockedSinceRestart }
  /// The app's state now.
  public var appState: AppState { lifecycle.state }
  /// Every task created so far, in creation order.
  public var allTasks: [SimURLSessionTask] { daemon.tasks }
  /// Delays set by each wake so far (wake 1 first).
  public var rateLimiterDelays: [SimDuration] { rateLimiter.delayAtWake }
  /// The rate limiter's current delay.
  public var rateLimiterDelay: SimDuration { rateLimiter.delay }

  /// Runs code outside the engine at `time` (timeline entries, app timers). Callbacks at one
  /// instant run in the order they were scheduled, before engine events scheduled later.
  public func schedule(at time: SimTime, _ action: @escaping (Simulation) -> Void) {
    let id = nextCallback
    nextCallback += 1
    callbacks[id] = action
    scheduler.schedule(.callback(id), at: max(time, now))
  }

  /// Processes every event up to `limit` (inclusive). Stops early when nothing is pending;
  /// otherwise leaves the clock at `limit`.
  public func run(until limit: SimTime) {
    guard invariantViolation == nil, !meter.stopped else { return }
    stopRequested = false
    outsideCodeRunner?({})
    isRunning = true
    defer { isRunning = false }
    while !stopRequested {
      if let (stream, at) = dueCondition(notAfter: limit), at <= scheduler.nextEventTime() ?? .distantFuture {
        meter.count(at: at)
        applyCondition(stream)
      } else if let event = scheduler.next(notAfter: limit) {
        meter.count(at: now)
        handle(event)
      } else {
        break
      }
      if checking { checkInvariants() }
      if budgetCheckpoint() { return }
    }
    if invariantViolation != nil { return }
    let pending = scheduler.pendingCount > 0 || conditions.hasPending
    if !stopRequested && pending { scheduler.advance(to: limit) }
  }

  /// Makes `run(until:)` return after the event being handled (a scenario error, say).
  public func requestStop() { stopRequested = true }

  /// Runs `duration` more of simulated time.
  public func run(for duration: SimDuration) { run(until: now + duration) }

  func handle(_ event: EngineEvent) {
    switch event {
    case .networkStep(let i):
      run { NetworkChangeRule.apply(deviceModel.network[i].value, engine: engine, into: &$0) }
    case .powerStep(let i):
      run { PowerChangeRule.apply(deviceModel.power[i].value, to: &engine.links, into: &$0) }
    case .serverChange(let i):
      run { ServerChangeRule.apply(serverModel.changes[i], to: &engine.links, into: &$0) }
    case .dropFault(let i): run { DropFaultRule.apply(fault: i, engine: engine, into: &$0) }
    case .stallChange(let i): run { StallChangeRule.apply(fault: i, engine: engine, into: &$0) }
    case .reevaluate:
      daemon.reevaluationFired()
      reevaluateAllWaiting()
    case .connected(let uid, let gen):
      ifCurrent(uid, gen) { task in
        run {
          ConnectedRule.apply(
            task, engine: engine, skipsAuthentication: injectedFault == .skipsAuthentication, into: &$0)
        }
      }
    case .linkCompletion(let up): run { LinkCompletedRule.apply(up: up, engine: engine, into: &$0) }
    case .progress(let uid, let gen): ifCurrent(uid, gen) { reportProgress($0) }
    case .retry(let uid, let gen):
      ifCurrent(uid, gen) { task in run { BackoffEndedRule.apply(task, engine: engine, into: &$0) } }
    case .resourceTimeout(let uid):
      run { ResourceTimeoutRule.apply(daemon.task(uid), engine: engine, into: &$0) }
    case .requestTimeout(let uid, let gen):
      ifCurrent(uid, gen) { task in run { RequestTimeoutRule.apply(task, engine: engine, into: &$0) } }
    case .suspendApp(let gen): if gen == lifecycle.generation { systemSuspend() }
    case .completionHandlerTimeout(let number):
      run { CompletionHandlerTimeoutRule.apply(wake: number, engine: engine, into: &$0) }
    case .rateLimiterIdle(let gen): rateLimiterIdleExpired(generation: gen)
    case .deliver(let index): deliverPending(daemon.sessionRecords[index])
    case .wakeCheck: run { WakeCheckRule.apply(engine: engine, into: &$0) }
    case .backgroundTimeExpired(let generation): backgroundTimeExpired(generation: generation)
    case .challengeTimeout(let uid, let gen):
      ifCurrent(uid, gen) { task in run { ChallengeTimeoutRule.apply(task, engine: engine, into: &$0) } }
    case .continuedStallCheck(let generation): continuedStallCheck(generation: generation)
    case .deviceUnlock(let restart):
      if restart == links.restartCount { run { DeviceUnlockRule.apply(to: &engine.links, into: &$0) } }
    case .endExtension(let run): endExtension(run: run)
    case .callback(let id):
      let action = callbacks.removeValue(forKey: id)!
      if let runner = outsideCodeRunner { runner { action(self) } } else { action(self) }
    }
  }

  private func ifCurrent(_ uid: Int32, _ generation: UInt32, _ body: (SimURLSessionTask) -> Void) {
    let task = daemon.task(uid)
    if task.machine.generation == generation && !task.isFinished { body(task) }
  }

  /// Records a trace event at the current time.
  func emit(_ kind: TraceKind, _ fields: [TraceField]) {
    record(kind.rawValue, fields)
  }

  private func record(_ kind: String, _ fields: [TraceField]) {
    if checking { observeForInvariants(kind, fields) }
    traceLog.append(TraceEvent(time: now, kind: kind, fields: fields))
  }

  func lint(_ rule: LintRule, _ message: String, _ extra: [TraceField] = []) {
    emit(
      .lint, [TraceField("rule", .string(rule.rawValue)), TraceField("message", .string(message))] + extra)
  }
}

extension Simulation {
  /// Records a trace event from code outside the engine (a scenario's scripted app).
  public func emitNote(_ kind: String, _ fields: [TraceField]) { record(kind, fields) }

  /// Records a trace event of a known kind from code outside the engine.
  public func emitNote(_ kind: TraceKind, _ fields: [TraceField]) { emit(kind, fields) }

  /// The server this simulation was made with (an exploration writes it into replay scenarios).
  public var server: ServerModel { serverModel }

  /// The determinism check in one line: `make` builds a world afresh (a new simulation, the app
  /// installed, its actions scheduled), runs it and returns it; this runs it `runs` times and
  /// compares the traces (`DeterminismCheck`).
  ///
  /// ```swift
  /// let check = Simulation.checkDeterminism(runs: 10) { makeWorld() }
  /// #expect(check.isDeterministic, "\(check)")
  /// ```
  public static func checkDeterminism(runs: Int = 2, _ make: () throws -> Simulation) rethrows
    -> DeterminismCheck
  {
    try DeterminismCheck.run(times: runs) { try make().trace.events }
  }

  /// The system's own decisions, on request: `sim.system.endRateLimiterDelay()`.
  public var system: SystemDecisions { SystemDecisions(simulation: self) }

  /// The app's container directory (its sandbox): a real directory, one per simulation, made on
  /// first use, that survives the app's processes. Documents, Library and tmp are subfolders the
  /// app may create. Removed when the simulation is released unless `keepsContainer` is set.
  /// A BgsimFoundation app sees the same directory as `SimulatedApplication.containerDirectory`.
  public var containerDirectory: String { appProcess.container().path }

  /// Keep the container on disk after the simulation is released (to inspect it after a test).
  public var keepsContainer: Bool {
    get { appProcess.container().keep }
    set { appProcess.container().keep = newValue }
  }

  /// See `AppContext.spend(_:)`. Ignored when the app is not running (a dead process's code).
  public func appSpends(_ duration: SimDuration) {
    guard duration > .zero, lifecycle.state.isRunning else { return }
    let stretch = appBusy.spend(duration, now: now)
    var fields = [TraceField("callback", .string(stretch.callback.name))]
    if let task = stretch.callback.task { fields.append(TraceField("task", .string(task))) }
    fields.append(TraceField("duration", .duration(duration)))
    emit(.appBusy, fields)
  }

  /// Adds a stream of changes; its first change is drawn now.
  public func addConditionStream(_ stream: ConditionStream) {
    conditions.add(stream)
  }
}

/// The run loop's helpers: condition streams and the budgets.
extension Simulation {
  /// The stream whose pending change comes first (the first added of equals), if due by `limit`.
  func dueCondition(notAfter limit: SimTime) -> (index: Int, at: SimTime)? {
    conditions.due(notAfter: limit)
  }

  /// Applies, in stream order, the streams' changes due at time 0 that `matches` selects
  /// (`init` applies network and power changes before the run, as it does the device's steps).
  func applyConditionsAtStart(where matches: (ConditionStream.Change) -> Bool) {
    for index in conditions.indices {
      while let next = conditions.peek(index), next.at <= .zero, matches(next.change) {
        applyCondition(index)
      }
    }
  }

  /// Applies the pending change of stream `index` at its time (`Rules/Device/ConditionChangeRule.swift`).
  func applyCondition(_ index: Int) {
    run { ConditionChangeRule.apply(stream: index, engine: engine, into: &$0) }
  }

  /// Checks the budgets in the middle of an event (one delivery can start a fan-out of new
  /// tasks that never returns to the run loop) and after each: true, after recording it and
  /// asking the run to stop, when one is used up.
  func budgetCheckpoint() -> Bool {
    if meter.stopped { return true }
    guard let used = meter.usedUp(tasks: daemon.taskCount, traceEvents: traceLog.count) else { return false }
    stop(overBudget: used)
    return true
  }

  /// Records the budget used up and stops the run: once per run, kept out of line so the
  /// per-event check above stays a few integer comparisons inlined in the run loop.
  @inline(never)
  private func stop(overBudget used: BudgetExceeded.Limit) {
    meter.stop()
    budgetExceeded = BudgetExceeded(
      limit: used, value: budget.value(of: used), at: now,
      busiest: BudgetExceeded.busiest(in: trace.events.suffix(2_000)))
    requestStop()
  }
}

// MARK: The app process (`App/AppProcess.swift` holds its state)
extension Simulation {
  /// Installs the app under test as a factory the engine calls at every launch (user or
  /// background); the object it returns is dropped when the process ends.
  public func install(factory: @escaping () -> AppUnderTest) {
    appProcess.host = nil
    appProcess.factory = factory
  }

  /// Installs an app through a host, a runtime that makes each process's app object (as
  /// BgsimFoundation's bridge does): the simulation keeps `host` while it lives and hands it
  /// back as `installedHost`.
  public func install(host: AnyObject, factory: @escaping () -> AppUnderTest) {
    appProcess.host = host
    appProcess.factory = factory
  }

  /// The host given to `install(host:factory:)`; nil when the app was installed without one.
  public var installedHost: AnyObject? { appProcess.host }

  /// Installs one app object for every launch (a factory that returns `app` each time). What
  /// this cannot catch: state the object keeps in memory survives terminations and force quits,
  /// which a real process would lose; prefer `install(factory:)`.
  public func install(_ app: AppUnderTest) { install(factory: { app }) }

  /// The live process's app, if it is running or suspended.
  public var currentApp: AppUnderTest? { appProcess.live }

  /// Runs app timers that came due while the process was suspended (it is running again).
  func runLateTimers() {
    for timer in appProcess.takeLateTimers() { timer(AppContext(simulation: self)) }
  }

  /// An app timer on simulated time: late while suspended, never once its process ended.
  func scheduleAppTimer(after delay: SimDuration, _ action: @escaping (AppContext) -> Void) {
    let process = appProcess.number
    schedule(at: now + delay) { sim in
      guard sim.appProcess.number == process, sim.appState != .notRunning else { return }
      if sim.appState.isRunning {
        action(AppContext(simulation: sim))
      } else {
        sim.appProcess.deferTimer(action)
      }
    }
  }
}

// MARK: The components, lent from `Engine`
/// The engine's components as the interpreter reaches them: each is `Engine`'s, and these
/// accessors only lend it (no copy: `_read` and `_modify` yield the stored value in place).
/// Code still written as `extension Simulation` reaches components through here; a rule moved
/// into its room takes the `Engine` and does not need them.
extension Simulation {
  var serverModel: ServerModel { engine.serverModel }
  var scheduler: Scheduler<EngineEvent> {
    _read { yield engine.scheduler }
    _modify { yield &engine.scheduler }
  }
  var links: Links {
    _read { yield engine.links }
    _modify { yield &engine.links }
  }
  var daemon: Daemon {
    _read { yield engine.daemon }
    _modify { yield &engine.daemon }
  }
  var lifecycle: AppLifecycle {
    _read { yield engine.lifecycle }
    _modify { yield &engine.lifecycle }
  }
  var rateLimiter: RateLimiter {
    _read { yield engine.rateLimiter }
    _modify { yield &engine.rateLimiter }
  }
  var wakes: WakeContract {
    _read { yield engine.wakes }
    _modify { yield &engine.wakes }
  }
  var assertions: BackgroundAssertions {
    _read { yield engine.assertions }
    _modify { yield &engine.assertions }
  }
  var continued: ContinuedProcessingTasks {
    _read { yield engine.continued }
    _modify { yield &engine.continued }
  }
  var appBusy: AppBusyTime {
    _read { yield engine.appBusy }
    _modify { yield &engine.appBusy }
  }
  var extensions: ExtensionProcesses {
    _read { yield engine.extensions }
    _modify { yield &engine.extensions }
  }
  var conditions: ConditionStreams {
    _read { yield engine.conditions }
    _modify { yield &engine.conditions }
  }
}
