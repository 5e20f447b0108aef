import SimKernel

/// Deciding when a resumed task may start (behavior.md, "When a task may start").
extension Simulation {
  func queueKey(_ task: SimURLSessionTask) -> String {
    task.session.identifier + " " + task.currentURL.host
  }

  func connectionLimit(_ task: SimURLSessionTask) -> Int {
    task.session.configuration.httpMaximumConnectionsPerHost ?? policy.maxConnectionsPerHost
  }

  /// Puts a resumed (or retrying) task in its wait queue and tries to start it.
  func enqueue(_ task: SimURLSessionTask) {
    task.phase = .waiting
    let key = queueKey(task)
    if waitQueues[key] == nil {
      waitQueues[key] = WaitQueue()
      waitQueueOrder.append(key)
    }
    waitQueues[key]!.insert(task)
    startWaiting(key: key)
    // The pass stops at the first task the connection limit holds; a task queued behind it
    // still gets its own reason traced, so every waiting task can say why.
    if task.phase == .waiting, let queue = waitQueues[key],
      let reason = waitReason(task, running: queue.running)
    {
      noteWaiting(task, reason)
      if reason == .earliestBegin { requestReevaluation(at: task.earliestBeginDate!) }
      if reason == .rateLimiter { requestReevaluation(at: rateLimiter.expiry) }
    }
  }

  /// Why `task` cannot start now, or nil when it can. Retries skip the conditions that only
  /// gate a first start (start date, rate limiter, discretionary).
  func waitReason(_ task: SimURLSessionTask, running: Int) -> SimURLSessionTask.WaitReason? {
    let configuration = task.session.configuration
    let firstStart = task.startedAt == nil
    if configuration.kind == .background && firstStart {
      if let date = task.earliestBeginDate, date > now { return .earliestBegin }
      if task.createdInBackground && rateLimiter.expiry > now { return .rateLimiter }
      if task.isDiscretionary {
        let missing = missingDiscretionaryConditions()
        if !missing.isEmpty { return .discretionary(missing: missing) }
      }
    }
    if configuration.kind == .default && lifecycle.state == .suspended { return .appSuspended }
    if let block = interfaceBlock(for: configuration) { return block }
    let slack = injectedFault == .connectionLimitOffByOne ? 1 : 0
    if running >= connectionLimit(task) + slack { return .connectionLimit }
    return nil
  }

  /// Starts the tasks of one queue that can start, in order, and records why the others wait.
  ///
  /// A full pass looks at every task so each one's traced reason stays true; a pass after a
  /// connection frees up (`full: false`) stops at the first task held by the connection limit,
  /// which keeps a completion O(1) in the common case however long the queue.
  func startWaiting(key: String, full: Bool = false) {
    guard let running = waitQueues[key]?.running, waitQueues[key]?.isEmpty == false else { return }
    // Take the queue out (a placeholder keeps the key) so it is not copied when it changes.
    var queue = waitQueues.updateValue(WaitQueue(running: running), forKey: key)!
    var started: [SimURLSessionTask] = []
    var failed: [SimURLSessionTask] = []
    var scanned = 0
    for task in queue.tasks {
      scanned += 1
      if let reason = waitReason(task, running: queue.running) {
        if task.session.configuration.kind == .default, task.startedAt == nil,
          reason == .connectivity || reason == .cellularNotAllowed || reason == .expensiveNotAllowed
            || reason == .constrainedNotAllowed
        {
          if !task.session.configuration.waitsForConnectivity {
            failed.append(task)
            continue
          }
          if task.lastWaitReason == nil { notifyWaitingForConnectivity(task) }
        }
        noteWaiting(task, reason)
        if reason == .earliestBegin { requestReevaluation(at: task.earliestBeginDate!) }
        if reason == .rateLimiter { requestReevaluation(at: rateLimiter.expiry) }
        if reason == .connectionLimit && !full { break }
      } else {
        queue.running += 1
        task.connectionKey = key
        started.append(task)
      }
    }
    if started.count + failed.count == 1 {
      let gone = (started.first ?? failed.first)!
      queue.removeFirst(scanned) { $0 === gone }
    } else if !started.isEmpty || !failed.isEmpty {
      let gone = Set((started + failed).map(\.uid))
      queue.removeFirst(scanned) { gone.contains($0.uid) }
    }
    waitQueues[key] = queue
    for task in started { beginAttempt(task) }
    for task in failed { fail(task, SimURLError(.notConnectedToInternet), freeingConnection: false) }
  }

  /// Re-decides every waiting task: after network, power, app-state or rate-limiter changes.
  func reevaluateAllWaiting() {
    for key in waitQueueOrder { startWaiting(key: key, full: true) }
  }

  /// Traces `task.deferred` when the reason a task waits changes.
  func noteWaiting(_ task: SimURLSessionTask, _ reason: SimURLSessionTask.WaitReason) {
    guard task.lastWaitReason != reason else { return }
    task.lastWaitReason = reason
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
    emit("task.deferred", fields)
  }

  /// Makes sure waits are re-decided at `time` (a start date or the rate limiter's expiry):
  /// one timer, armed for the earliest such instant.
  func requestReevaluation(at time: SimTime) {
    guard time > now else { return }
    if let at = reevaluateAt, at <= time { return }
    if let handle = reevaluateHandle { scheduler.cancel(handle) }
    reevaluateHandle = scheduler.schedule(.reevaluate, at: time)
    reevaluateAt = time
  }

  /// A connection slot of `task`'s (session, host) pair is free again.
  func releaseConnection(of task: SimURLSessionTask) {
    let key = task.connectionKey ?? queueKey(task)
    guard waitQueues[key] != nil else { return }
    waitQueues[key]!.running -= 1
    if waitQueues[key]!.running < 0 {
      inconsistency(.engineConsistency, "negative connection count for '\(key)'")
    }
    startWaiting(key: key)
  }

  /// Takes a task out of its wait queue (cancelled or failed while waiting).
  func removeFromWaitQueue(_ task: SimURLSessionTask) {
    waitQueues[queueKey(task)]?.remove(task)
  }
}
