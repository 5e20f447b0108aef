import SimKernel

/// Rule: an admission pass over one wait queue (behavior.md, "When a task may start"): after a
/// task is queued (resumed, retrying, unpaused), a connection frees up, or anything admission
/// decides on changes (every queue, in the order the queues were made).
///
/// `Admission` is asked about each task in queue order. A task it lets through takes a
/// connection and starts (`.beginAttempt`); a default session's first start that the network
/// blocks fails at once with -1009 unless it waits for connectivity (its delegate is told, once);
/// any other task waits, its reason traced when it changed, a delayed-request handler asked, and
/// a re-evaluation armed for a reason with an end (a start date, the rate limiter's expiry).
enum AdmissionPassRule {
  /// Re-decides every waiting task: each queue's full pass is carried out before the next one's
  /// is decided (`.fullAdmissionPasses`), since a start or failure in one can change another. The
  /// queues are those that exist now; a queue made by a pass's effects is decided by its own.
  static func reevaluateAll(engine: Engine, into effects: inout EffectBuffer) {
    let queues = engine.daemon.waitQueueCount
    if queues > 0 { effects.append(.fullAdmissionPasses(queues: queues)) }
  }

  /// The next queue from `cursor` up to `queues` whose full pass may do something
  /// (`.fullAdmissionPasses`), or nil when none is left. The others are parked
  /// (`ParkedQueues`): wholly blocked by a run that still stands, whose pass would only ask for a
  /// re-evaluation the armed timer already makes (at or before the run's end) or one the next
  /// queue visited replaces at once (`ParkedQueues.next`). Asked again after each pass, since a
  /// pass's effects may change any input or queue.
  static func nextFullPass(from cursor: Int32, below queues: Int32, engine: Engine) -> WaitQueue.Key? {
    if engine.daemon.parking.hasParked {
      engine.daemon.parking.release(changedFrom: engine.admissionEpochs())
    }
    return engine.daemon.parking.next(
      from: cursor, below: queues, now: engine.now, armed: engine.daemon.reevaluation?.at)
  }

  /// After a full pass over `key` (and its effects): parks the queue when the next full pass
  /// would skip it, and drops it from the visits while it is empty.
  static func fullPassDone(_ key: WaitQueue.Key, engine: Engine) {
    guard let run = engine.daemon.wholeQueueBlockedRun(key) else {
      if !engine.daemon.hasWaiting(key) { engine.daemon.parking.drop(key.index) }
      return
    }
    let epochs = engine.admissionEpochs()
    if run.stands(in: epochs, at: engine.now) { engine.daemon.parking.park(key.index, run, epochs: epochs) }
  }

  /// Puts a waiting task in its queue and runs the queue's pass; then (`.explainWait`) a task
  /// still waiting behind one the connection limit holds gets its own reason traced.
  static func enqueue(_ task: SimURLSessionTask, engine: Engine, into effects: inout EffectBuffer) {
    let key = engine.daemon.insert(task)
    apply(key: key, engine: engine, into: &effects)
    effects.append(.explainWait(uid: task.uid, key: key))
  }

  /// The pass stops at the first task the connection limit holds; a task queued behind it
  /// still gets its own reason traced, so every waiting task can say why.
  static func explainWait(
    _ task: SimURLSessionTask, key: WaitQueue.Key, engine: Engine, into effects: inout EffectBuffer
  ) {
    guard task.machine.isWaiting,
      let reason = Admission.waitReason(
        engine.admissionRequest(task, running: engine.daemon.running(key)), in: engine.admissionConditions)
    else { return }
    waiting(
      task, reason, changed: engine.tasks[task].machine.deferred(reason) == .traceReason, engine: engine,
      into: &effects)
  }

  /// A slot of `task`'s (session, host) pair is free again; the next waiting task takes it,
  /// unless the slot is freed by a batch that ends every task of the pair (`admitting` false: a
  /// force quit, `invalidateAndCancel`, the app's process ending), where a task started now
  /// would only be ended a moment later.
  static func releaseConnection(
    of task: SimURLSessionTask, admitting: Bool, engine: Engine, into effects: inout EffectBuffer
  ) {
    guard let key = task.connectionKey ?? engine.daemon.queueKey(task) else { return }
    let left = engine.daemon.closeConnection(key)
    if left < 0 {
      effects.append(
        .inconsistency(.engineConsistency, "negative connection count for '\(engine.daemon.queueName(key))'"))
    }
    if admitting { apply(key: key, engine: engine, into: &effects) }
  }

  /// One pass over the queue `key`: starts the tasks that can start, in order, and records why
  /// the others wait (`AdmissionPass` decides; its decisions are carried out here, once the queue
  /// is back in the daemon).
  ///
  /// A full pass looks at every task so each one's traced reason stays true; a pass after a
  /// connection frees up (`full: false`) stops at the first task held by the connection limit,
  /// which keeps a completion O(1) in the common case however long the queue.
  ///
  /// Either skips the tasks the last passes found blocked for a lasting reason, while nothing
  /// they depend on changed and their instants have not come (`KnownBlockedRun`): it would decide
  /// the same for each and do nothing. So one session's queue of N tasks with N start dates costs
  /// each date O(log N), not N.
  static func apply(
    key: WaitQueue.Key, full: Bool = false, engine: Engine, into effects: inout EffectBuffer
  ) {
    guard engine.daemon.hasWaiting(key) else { return }
    // Admission's input groups are numbered only where known-blocked tasks may be skipped: most
    // passes (a completion in a queue with nothing blocked ahead) need no number.
    lazy var epochs = engine.admissionEpochs()
    if full, let run = engine.daemon.wholeQueueBlockedRun(key), run.stands(in: epochs, at: engine.now) {
      if let until = run.until { effects.append(.requestReevaluation(at: until)) }
      return
    }
    var queue = engine.daemon.takeQueue(key)
    var pass = AdmissionPass(full: full, engine: engine)
    pass.begin(&queue, epochs: epochs, into: &effects)
    pass.decideRows(&queue, key: key, engine: engine, into: &effects)
    if pass.heldByRateLimiter { effects.append(.requestReevaluation(at: engine.rateLimiter.expiry)) }
    pass.settle(&queue, epochs: epochs)
    engine.daemon.restore(queue, key: key)
    for decision in pass.decisions {
      switch decision {
      case .notifyWaitingForConnectivity(let task):
        effects.append(.notifyWaitingForConnectivity(uid: task.uid))
      case .waiting(let task, let reason, let changed):
        waiting(task, reason, changed: changed, engine: engine, into: &effects)
      }
    }
    for task in pass.started { effects.append(.beginAttempt(uid: task.uid)) }
    for (task, unavailable) in pass.failed {
      effects.append(.failNotConnected(uid: task.uid, reason: unavailable))
    }
  }

  /// A task waits for `reason`: traced when it `changed`, a delayed-request handler asked, a
  /// re-evaluation armed for a reason with an end.
  private static func waiting(
    _ task: SimURLSessionTask, _ reason: SimURLSessionTask.WaitReason, changed: Bool, engine: Engine,
    into effects: inout EffectBuffer
  ) {
    if changed { effects.append(.trace(.taskDeferred, deferredFields(task, reason, engine: engine))) }
    if reason == .delayedRequest { effects.append(.askDelayedRequest(uid: task.uid)) }
    if reason == .earliestBegin { effects.append(.requestReevaluation(at: task.earliestBeginDate!)) }
    if reason == .rateLimiter { effects.append(.requestReevaluation(at: engine.rateLimiter.expiry)) }
  }

  /// `task.deferred`'s fields for a reason the task's machine just took.
  private static func deferredFields(
    _ task: SimURLSessionTask, _ reason: SimURLSessionTask.WaitReason, engine: Engine
  ) -> [TraceField] {
    var fields = [
      TraceField("task", .string(task.name)), TraceField("session", .string(task.session.identifier)),
      TraceField("reason", .string(reason.name)),
    ]
    switch reason {
    case .earliestBegin:
      if let date = task.earliestBeginDate { fields.append(TraceField("until", .duration(date.sinceStart))) }
    case .rateLimiter: fields.append(TraceField("until", .duration(engine.rateLimiter.expiry.sinceStart)))
    case .discretionary(let missing):
      fields.append(TraceField("missing", .string(missing.joined(separator: ","))))
    default: break
    }
    return fields
  }
}

/// One admission pass over a queue taken out of the daemon (`AdmissionPassRule.apply`): which
/// rows it decides, in what order, what it decided about each, and what the queue's
/// known-blocked run learns from it. What it decided is carried out once the queue is back.
///
/// The rows come in two parts. While the known-blocked tasks stand, first the filed tasks the
/// run gives back (`nextRevisit`: their instant came, or they were filed to be visited), in
/// queue order; then the tasks behind the filed ones. Otherwise every task, from the front.
/// Behind the filed tasks the run grows while the tasks are known blocked (or start, or fail:
/// they leave); the first blocked for a shorter reason ends it, and the tasks after that one are
/// decided at every pass, unfiled, as a completion's pass stops at the first of them.
private struct AdmissionPass {
  /// What the pass decided about a task that waits.
  enum Decision {
    /// A default session's task that waits for connectivity: tell its delegate.
    case notifyWaitingForConnectivity(SimURLSessionTask)
    /// The task waits for `reason` (the machine already took it), traced when it `changed`.
    case waiting(SimURLSessionTask, SimURLSessionTask.WaitReason, changed: Bool)
  }

  /// A full pass decides every task; one after a connection frees up stops at the first task
  /// the connection limit holds.
  let full: Bool
  let conditions: Admission.Conditions
  private(set) var decisions: [Decision] = []
  private(set) var started: [SimURLSessionTask] = []
  private(set) var failed: [(SimURLSessionTask, SimURLError.NetworkUnavailableReason?)] = []
  /// A task already traced as held by the rate limiter still is: one re-evaluation at its expiry.
  private(set) var heldByRateLimiter = false
  /// The input groups the blocks of the filed tasks read.
  private var reads: AdmissionInputGroups = []
  /// Whether the run's revisits come first (`begin` found its known-blocked tasks standing).
  private var revisiting = false
  /// The tasks behind the filed ones that joined the run.
  private var tailFiled = 0
  /// The queue's first rows the pass may have started or failed: the filed ones and those it
  /// decided behind them.
  private var decidedPrefix = 0

  init(full: Bool, engine: Engine) {
    self.full = full
    conditions = engine.admissionConditions
  }

  /// One request for the whole pass: its session's part is set when the session changes, the
  /// task's part for each row (`setTask`). The session's configuration is read again only when
  /// the session changes (a queue holds one identifier's tasks, nearly always of one session),
  /// and the task's machine once: each read costs a reference count and an access check, and a
  /// long queue is scanned often.
  private struct Requests {
    var request: Admission.Request
    private var session: UnsafeMutableRawPointer?
    private var asksDelayedRequests = false
    private var sessionAllowsConstrained = true

    init(engine: Engine) { request = engine.admissionRequest(for: .default()) }

    /// The request for `row`, with `running` of its pair's connections taken.
    @inline(__always) mutating func set(_ row: WaitQueue.Row, running: Int, engine: Engine) {
      if row.pointee.sessionIdentity != session {
        let owner = row.pointee.owner
        session = row.pointee.sessionIdentity
        asksDelayedRequests = owner.asksDelayedRequests
        request = engine.admissionRequest(for: owner.configuration)
        sessionAllowsConstrained = request.configuration.allowsConstrainedNetworkAccess
      }
      request.setTask(
        row, sessionAllowsConstrained: sessionAllowsConstrained, asksDelayedRequests: asksDelayedRequests,
        transferSize: row.pointee.isDiscretionary
          ? engine.discretionarySize(engine.daemon.task(row.pointee.uid)) : 0,
        running: running)
    }
  }

  /// Sets up where the rows come from: the run's revisits while its known-blocked tasks stand
  /// (then a full pass, or one that found an instant come, asks again for the re-evaluation at
  /// the earliest instant among the skipped tasks: the timer that called it may be the one that
  /// just fired), else every task with the run forgotten.
  mutating func begin(
    _ queue: inout WaitQueue, epochs: @autoclosure () -> AdmissionEpochs, into effects: inout EffectBuffer
  ) {
    guard queue.run.blockedCount > 0 && queue.run.stands(in: epochs()) && queue.run.hasKeys(for: queue.count)
    else {
      queue.forgetRun()
      return
    }
    revisiting = true
    reads = queue.run.reads
    // A full pass leaves the tasks the connection limit held alone while none could start.
    let due = queue.run.beginRevisits(
      at: conditions.now,
      skippingSlotHoles: full
        && queue.run.slotHolesStand(in: epochs(), running: queue.running, slack: conditions.connectionSlack))
    if full || due > 0, let until = queue.run.earliestEnd {
      effects.append(.requestReevaluation(at: until))
    }
  }

  /// Decides the rows of `queue` (the one of `key`) in order until they run out or, in a pass
  /// that is not full, a task the connection limit holds ends it. In a function of its own: the
  /// slice of the queue's rows must be gone before the queue changes, or it is copied. The rows
  /// only (`WaitQueue`): a task's handle is looked up for the few the pass acts on.
  mutating func decideRows(
    _ queue: inout WaitQueue, key: WaitQueue.Key, engine: Engine, into effects: inout EffectBuffer
  ) {
    // What every row reads or adds to, in locals: through `self` at each row it cost `fleet` 2%
    // of its instructions.
    let conditions = self.conditions
    let full = self.full
    var requests = Requests(engine: engine)
    var revisiting = self.revisiting
    var reads = self.reads
    var heldByRateLimiter = false
    var tailFiled = 0
    var tailInRun = true
    var tail = queue.rowsBehindRun
    while true {
      let row: WaitQueue.Row
      let filedKey: UInt64?
      let files: Bool
      if revisiting, let entry = queue.run.nextRevisit() {
        row = entry.row
        filedKey = entry.key
        files = true
      } else if let next = tail.next() {
        revisiting = false
        row = next
        filedKey = nil
        files = tailInRun
        if tailInRun { tailFiled += 1 }
      } else {
        break
      }
      requests.set(row, running: queue.running, engine: engine)
      let request = requests.request
      guard let reason = Admission.waitReason(request, in: conditions) else {
        queue.openConnection()
        row.pointee.record.tookConnection(key)
        engine.tasks.noteChange(row.pointee.uid)
        started.append(engine.daemon.task(row.pointee.uid))
        continue
      }
      if request.configuration.kind == .default, request.firstStart, reason.isInterfaceBlock {
        if !request.configuration.waitsForConnectivity {
          failed.append((engine.daemon.task(row.pointee.uid), reason.networkUnavailableReason))
          continue
        }
        if row.pointee.tracedWaitReason == nil {
          decisions.append(.notifyWaitingForConnectivity(engine.daemon.task(row.pointee.uid)))
        }
      }
      waits(row, reason, request, heldByRateLimiter: &heldByRateLimiter, engine: engine, into: &effects)
      if files, !file(row, reason, request, key: filedKey, in: &queue.run, reads: &reads) {
        tailInRun = false
        tailFiled -= 1
      }
      if case .connectionLimit = reason, !full { break }
    }
    decidedPrefix = queue.run.length + tail.taken
    self.tailFiled = tailFiled
    self.reads = reads
    self.heldByRateLimiter = heldByRateLimiter
  }

  /// The task of `row` waits for `reason`. A reason already traced needs no action but its
  /// re-evaluation time: most tasks of a long queue wait for the same reason pass after pass.
  @inline(__always) private mutating func waits(
    _ row: WaitQueue.Row, _ reason: SimURLSessionTask.WaitReason, _ request: Admission.Request,
    heldByRateLimiter: inout Bool, engine: Engine, into effects: inout EffectBuffer
  ) {
    if reason.isSame(as: row.pointee.tracedWaitReason) {
      if case .earliestBegin = reason { effects.append(.requestReevaluation(at: request.earliestBeginDate!)) }
      if case .rateLimiter = reason { heldByRateLimiter = true }
    } else {
      let changed = row.pointee.machine.deferred(reason) == .traceReason
      engine.tasks.noteChange(row.pointee.uid)
      decisions.append(.waiting(engine.daemon.task(row.pointee.uid), reason, changed: changed))
    }
  }

  /// Files the waiting `row` in the run: known blocked for a reason that lasts until an input
  /// changes or ends at an instant, else (a task already filed) to be visited at every pass.
  /// False for a task behind the filed ones that the run cannot take: the run ends before it.
  @inline(__always) private func file(
    _ row: WaitQueue.Row, _ reason: SimURLSessionTask.WaitReason, _ request: Admission.Request, key: UInt64?,
    in run: inout KnownBlockedRun, reads: inout AdmissionInputGroups
  ) -> Bool {
    if reason.lastsUntilInputsChange {
      run.fileBlocked(row, key: key, until: nil)
    } else if let end = Admission.timedBlockEnd(reason, request, in: conditions) {
      run.fileBlocked(row, key: key, until: end)
    } else if key != nil {
      let limit: Int? = if case .connectionLimit = reason { request.connectionLimit } else { nil }
      run.fileToVisit(row, key: key, slotLimit: limit)
      return true
    } else {
      return false
    }
    reads.formUnion(reason.inputGroups)
    return true
  }

  /// After the rows: the run takes the tasks behind the filed ones that joined it and the inputs
  /// its blocks read (as the pass found them: it changes none), and the tasks that started or
  /// failed leave the queue.
  mutating func settle(_ queue: inout WaitQueue, epochs: @autoclosure () -> AdmissionEpochs) {
    queue.run.length += tailFiled
    queue.run.endRevisits(in: epochs())
    let gone = started.count + failed.count
    if gone > 0 && gone <= 16 {
      // Each found by its start order: a few tasks anywhere in a long queue.
      for task in started { queue.remove(task.row) }
      for (task, _) in failed { queue.remove(task.row) }
    } else if gone > 16 {
      let uids = Set((started + failed.map(\.0)).map(\.uid))
      queue.removeFirst(decidedPrefix) { uids.contains($0.pointee.uid) }
    }
    if queue.run.blockedCount > 0 {
      queue.run.epochs = epochs()
      queue.run.reads = reads
    }
  }
}
