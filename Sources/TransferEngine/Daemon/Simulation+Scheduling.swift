import SimKernel

/// Admission passes: putting resumed tasks in their queues, asking `Admission` about each, and
/// carrying out the answers (behavior.md, "When a task may start").
extension Simulation {
  func connectionLimit(_ task: SimURLSessionTask) -> Int {
    connectionLimit(task.session.configuration)
  }

  func connectionLimit(_ configuration: SessionConfiguration) -> Int {
    configuration.httpMaximumConnectionsPerHost ?? policy.maxConnectionsPerHost
  }

  /// What admission needs to know about `task`, with its pair holding `running` connections.
  func admissionRequest(_ task: SimURLSessionTask, running: Int) -> Admission.Request {
    Admission.Request(
      configuration: task.effectiveConfiguration, firstStart: task.machine.startedAt == nil,
      earliestBeginDate: task.earliestBeginDate, createdInBackground: task.createdInBackground,
      isDiscretionary: task.isDiscretionary, transferSize: discretionarySize(task), running: running,
      connectionLimit: connectionLimit(task), awaitsDelayedAnswer: task.awaitsDelayedRequestAnswer)
  }

  /// The size the system judges a discretionary transfer by (behavior.md, "Discretionary
  /// work"): the app's `countOfBytesClientExpectsToSend` plus `...ToReceive` when it gave
  /// either, else the upload's body, else the resource's size at the server [S]. Zero for a
  /// task that is not discretionary, which never reads it.
  func discretionarySize(_ task: SimURLSessionTask) -> Int64 {
    guard task.isDiscretionary else { return 0 }
    let send = task.countOfBytesClientExpectsToSend
    let receive = task.countOfBytesClientExpectsToReceive
    if send != nil || receive != nil {
      let (sum, overflow) = (send ?? 0).addingReportingOverflow(receive ?? 0)
      return overflow ? .max : sum
    }
    if case .upload(_, let size) = task.kind { return size }
    return links.server.resource(task.currentURL)?.size ?? 0
  }

  /// Puts a waiting task (resumed, retrying or unpaused) in its queue and tries to start it.
  func enqueue(_ task: SimURLSessionTask) {
    let key = daemon.insert(task)
    startWaiting(key: key)
    // The pass stops at the first task the connection limit holds; a task queued behind it
    // still gets its own reason traced, so every waiting task can say why.
    if task.machine.isWaiting, let running = daemon.running(key),
      let reason = Admission.waitReason(
        admissionRequest(task, running: running), in: engine.admissionConditions)
    {
      perform([.waiting(task, reason, changed: task.machine.deferred(reason) == .traceReason)])
    }
  }

  /// What an admission pass decided, carried out in order once the queue is back in place.
  enum AdmissionAction {
    /// A default session's task that waits for connectivity: tell its delegate.
    case notifyWaitingForConnectivity(SimURLSessionTask)
    /// The task waits for `reason` (the machine already took it): trace it when it `changed`, and
    /// arm a re-evaluation when the reason has an end.
    case waiting(SimURLSessionTask, SimURLSessionTask.WaitReason, changed: Bool)
  }

  /// Starts the tasks of one queue that can start, in order, and records why the others wait.
  ///
  /// A full pass looks at every task so each one's traced reason stays true; a pass after a
  /// connection frees up (`full: false`) stops at the first task held by the connection limit,
  /// which keeps a completion O(1) in the common case however long the queue.
  func startWaiting(key: String, full: Bool = false) {
    guard daemon.hasWaiting(key), var queue = daemon.takeQueue(key) else { return }
    let conditions = engine.admissionConditions
    var actions: [AdmissionAction] = []
    var started: [SimURLSessionTask] = []
    var failed: [(SimURLSessionTask, SimURLError.NetworkUnavailableReason?)] = []
    var scanned = 0
    // The session's configuration is read again only when the session changes (a queue holds
    // one identifier's tasks, nearly always of one session), and the task's machine once: each
    // read costs a reference count and an access check, and a long queue is scanned often.
    var session: DaemonSession?
    var configuration = SessionConfiguration.default()
    var limit = 0
    var heldByRateLimiter = false
    for task in queue.tasks {
      scanned += 1
      let owner = task.session
      if owner !== session {
        session = owner
        configuration = owner.configuration
        limit = connectionLimit(configuration)
      }
      // Fields read in place: a copy of the whole machine costs more than the pass's own work.
      let firstStart = task.machine.startedAt == nil
      let traced = task.machine.tracedWaitReason
      var request = Admission.Request(
        configuration: configuration, firstStart: firstStart,
        earliestBeginDate: task.earliestBeginDate, createdInBackground: task.createdInBackground,
        isDiscretionary: task.isDiscretionary, transferSize: discretionarySize(task), running: queue.running,
        connectionLimit: limit, awaitsDelayedAnswer: task.awaitsDelayedRequestAnswer)
      if !task.allowsConstrainedNetworkAccess { request.configuration.allowsConstrainedNetworkAccess = false }
      if let reason = Admission.waitReason(request, in: conditions) {
        if configuration.kind == .default, firstStart, reason.isInterfaceBlock {
          if !request.configuration.waitsForConnectivity {
            failed.append((task, reason.networkUnavailableReason))
            continue
          }
          if traced == nil { actions.append(.notifyWaitingForConnectivity(task)) }
        }
        // A reason already traced needs no action but its re-evaluation time; most tasks of a
        // long queue wait for the same reason pass after pass.
        if traced == reason {
          if reason == .earliestBegin { requestReevaluation(at: task.earliestBeginDate!) }
          if reason == .rateLimiter { heldByRateLimiter = true }
        } else {
          actions.append(.waiting(task, reason, changed: task.machine.deferred(reason) == .traceReason))
        }
        if reason == .connectionLimit && !full { break }
      } else {
        queue.openConnection()
        task.record.tookConnection(key)
        started.append(task)
      }
    }
    if heldByRateLimiter { requestReevaluation(at: rateLimiter.expiry) }
    if started.count + failed.count == 1 {
      let only = (started.first ?? failed.first?.0)!
      queue.removeFirst(scanned) { $0 === only }
    } else if !started.isEmpty || !failed.isEmpty {
      let uids = Set((started + failed.map(\.0)).map(\.uid))
      queue.removeFirst(scanned) { uids.contains($0.uid) }
    }
    daemon.restore(queue, key: key)
    perform(actions)
    for task in started { beginAttempt(task) }
    for (task, unavailable) in failed {
      var error = SimURLError(.notConnectedToInternet)
      error.networkUnavailableReason = unavailable
      fail(task, error, freeingConnection: false)
    }
  }

  /// Carries out an admission pass's decisions about waiting tasks, in order.
  func perform(_ actions: [AdmissionAction]) {
    for action in actions {
      switch action {
      case .notifyWaitingForConnectivity(let task): notifyWaitingForConnectivity(task)
      case .waiting(let task, let reason, let changed):
        if changed { traceDeferred(task, reason) }
        if reason == .delayedRequest { askDelayedRequest(task) }
        if reason == .earliestBegin { requestReevaluation(at: task.earliestBeginDate!) }
        if reason == .rateLimiter { requestReevaluation(at: rateLimiter.expiry) }
      }
    }
  }

  /// Re-decides every waiting task: after network, power, app-state or rate-limiter changes.
  func reevaluateAllWaiting() {
    for key in daemon.waitQueueOrder { startWaiting(key: key, full: true) }
  }

  /// Traces `task.deferred` for a reason the task's machine just took.
  private func traceDeferred(_ task: SimURLSessionTask, _ reason: SimURLSessionTask.WaitReason) {
    var fields = [
      TraceField("task", .string(task.name)), TraceField("session", .string(task.session.identifier)),
      TraceField("reason", .string(reason.name)),
    ]
    switch reason {
    case .earliestBegin:
      if let date = task.earliestBeginDate { fields.append(TraceField("until", .duration(date.sinceStart))) }
    case .rateLimiter: fields.append(TraceField("until", .duration(rateLimiter.expiry.sinceStart)))
    case .discretionary(let missing):
      fields.append(TraceField("missing", .string(missing.joined(separator: ","))))
    default: break
    }
    emit(.taskDeferred, fields)
  }

  /// Makes sure waits are re-decided at `time` (a start date or the rate limiter's expiry):
  /// one timer, armed for the earliest such instant.
  func requestReevaluation(at time: SimTime) {
    guard time > now, daemon.needsReevaluation(at: time) else { return }
    if let replaced = daemon.reevaluation?.handle { scheduler.cancel(replaced) }
    daemon.armedReevaluation(at: time, handle: scheduler.schedule(.reevaluate, at: time))
  }

  /// A connection slot of `task`'s (session, host) pair is free again; the next waiting task
  /// takes it, unless the slot is freed by a batch that ends every task of the pair (`admitting`
  /// false: a force quit, `invalidateAndCancel`, the app's process ending), where a task started
  /// now would only be ended a moment later.
  func releaseConnection(of task: SimURLSessionTask, admitting: Bool = true) {
    let key = task.connectionKey ?? daemon.queueKey(task)
    guard let left = daemon.closeConnection(key) else { return }
    if left < 0 { inconsistency(.engineConsistency, "negative connection count for '\(key)'") }
    if admitting { startWaiting(key: key) }
  }
}
