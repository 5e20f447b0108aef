import SimKernel

/// The effect interpreter: `run(_:)` lends a rule (`Rules/`) the reused effect buffer, and
/// `interpret(_:)` carries out what it appended, in order. What the invariant checker is told,
/// and what it finds, is below (the `.observe` effects end there). The calls into the app that
/// `.callApp` and the deliveries make are in `Simulation+App.swift`.
extension Simulation {
  /// Lets `rule` fill the reused effect buffer, then performs its effects in order; returns what
  /// the rule returns (which an effect's arm may ignore). Effects appended before a rule throws
  /// are still performed.
  @discardableResult
  func run<R, E: Error>(_ rule: (inout EffectBuffer) throws(E) -> R) throws(E) -> R {
    var effects = takeEffectBuffer()
    let result: R
    do {
      result = try rule(&effects)
    } catch {
      interpret(consume effects)
      throw error
    }
    interpret(consume effects)
    return result
  }

  /// Re-decides every waiting task (`AdmissionPassRule.reevaluateAll`): a condition admission
  /// depends on changed.
  func reevaluateAllWaiting() { run { AdmissionPassRule.reevaluateAll(engine: engine, into: &$0) } }

  /// The reused buffer for the next rule, or a new one when a rule runs inside another's
  /// effects (then both keep their own order).
  func takeEffectBuffer() -> EffectBuffer {
    spareEffects.popLast() ?? EffectBuffer()
  }

  /// Performs `effects` in order, then keeps the emptied buffer for the next rule.
  ///
  /// A rule that goes on once the app has answered ends its list with `.afterApp`; that step's
  /// effects are performed by this same loop, in the same buffer, rather than by a nested one.
  /// The order is the same, and N expiration handlers in a row (N open background tasks when
  /// background time runs out) no longer nest N calls deep: 6,000 overflowed the stack.
  func interpret(_ effects: consuming EffectBuffer) {
    while true {
      // Most wake checks find nothing to do: hand the buffer back as it is.
      if effects.isEmpty {
        spareEffects.append(effects)
        return
      }
      var next: AfterApp?
      let last = effects.effects.count - 1
      // By index, not with an iterator: an iterator's copy of the list would make it shared, and
      // emptying a shared list allocates a new one for every input.
      for index in effects.effects.indices {
        switch effects.effects[index] {
        case .trace(let kind, let fields): emit(kind, fields)
        case .interrupt(let uid, let reason, let retryNow):
          run {
            InterruptRule.apply(
              daemon.task(uid), reason: reason, retryNow: retryNow, engine: engine, into: &$0)
          }
        case .requeueAhead(let uid):
          // Only a task the interruption did queue again at once (a background task: a default
          // session's task failed instead) is waiting to reclaim its slot.
          let task = daemon.task(uid)
          if task.machine.isWaiting && task.machine.reclaimsSlot { _ = daemon.insert(task) }
        case .rescheduleLinks: engine.rescheduleLinks()
        case .reevaluateWaiting: reevaluateAllWaiting()
        case .schedule(let event, let at): scheduler.schedule(event, at: at)
        case .callApp(let call): callApp(call)
        case .lint(let rule, let message, let fields): lint(rule, message, fields)
        case .observe(let observation): if checking { observe(observation) }
        case .terminate(let reason): terminate(reason: reason)
        case .systemSuspend: systemSuspend()
        case .requestWakeCheck:
          // As `Engine.requestWakeCheck`, for a rule that does not hold the engine.
          if wakes.requestCheck() { scheduler.schedule(.wakeCheck, at: now) }
        case .sessionWoken(let index):
          let record = daemon.sessionRecords[index]
          record.owesWake(false)
          record.challengesWokeApp(in: engine.tasks)
        case .disconnectBackgroundDataTasks: run { engine.disconnectBackgroundDataTasks(into: &$0) }
        case .endWake: run { EndWakeRule.apply(engine: engine, into: &$0) }
        case .pauseDefaultTransfers: run { engine.pauseDefaultTransfers(into: &$0) }
        case .detachFromApp(let index): daemon.sessionRecords[index].detachFromApp()
        case .disconnect(let uid):
          run { FailTaskRule.disconnect(daemon.task(uid), engine: engine, into: &$0) }
        case .afterApp(let step):
          if index == last {
            next = step
          } else {
            run { fill(after: step, into: &$0) }
          }
        case .endProcess:
          appProcess.end()
          assertionHandlers = [:]
        case .vanish(let uid, let reason):
          run { VanishTaskRule.apply(daemon.task(uid), reason: reason, engine: engine, into: &$0) }
        case .cancelTask(let uid, let produceResumeData, let reason, let admitting):
          run {
            CancelTaskRule.apply(
              daemon.task(uid), produceResumeData: produceResumeData, reason: reason,
              admitting: admitting,
              engine: engine, into: &$0)
          }
        case .resumePausedDefaultTransfers: run { engine.resumePausedDefaultTransfers(into: &$0) }
        case .armSessionProgress(let index): engine.armProgressForSession(daemon.sessionRecords[index])
        case .armProgress(let uid): engine.armProgress(daemon.task(uid))
        case .processEnded: run { engine.processEnded(into: &$0) }
        case .extensionEndedByRestart(let name):
          run { ExtensionEndRule.ended(name, reason: "reboot", engine: engine, into: &$0) }
        case .restartCutsTransfers(let restart, let unlockAt):
          run { RebootRule.cutTransfers(restart: restart, unlockAt: unlockAt, engine: engine, into: &$0) }
        case .stall(let uid): run { engine.stall(daemon.task(uid), into: &$0) }
        case .unstall(let uid): run { engine.unstall(daemon.task(uid), into: &$0) }
        case .armRequestTimeout(let uid, let generation, let after):
          engine.tasks[daemon.task(uid)].record.idleTimerStarted(
            scheduler.schedule(.requestTimeout(uid: uid, generation: generation), after: after))
        case .admissionPass(let key, let full):
          run { AdmissionPassRule.apply(key: key, full: full, engine: engine, into: &$0) }
        case .fullAdmissionPasses(let queues):
          // Only the queues whose pass may do something (`ParkedQueues`), in key order.
          var cursor: Int32 = 0
          while let key = AdmissionPassRule.nextFullPass(from: cursor, below: queues, engine: engine) {
            run { AdmissionPassRule.apply(key: key, full: true, engine: engine, into: &$0) }
            AdmissionPassRule.fullPassDone(key, engine: engine)
            cursor = key.index + 1
          }
        case .explainWait(let uid, let key):
          run { AdmissionPassRule.explainWait(daemon.task(uid), key: key, engine: engine, into: &$0) }
        case .requestReevaluation(let time): requestReevaluation(at: time)
        case .notifyWaitingForConnectivity(let uid): notifyWaitingForConnectivity(daemon.task(uid))
        case .askDelayedRequest(let uid):
          run { DelayedRequestAskRule.apply(daemon.task(uid), engine: engine, into: &$0) }
        case .beginAttempt(let uid):
          run { AttemptStartRule.apply(daemon.task(uid), engine: engine, into: &$0) }
        case .failNotConnected(let uid, let reason):
          var error = SimURLError(.notConnectedToInternet)
          error.networkUnavailableReason = reason
          run {
            FailTaskRule.apply(
              daemon.task(uid), error, freeingConnection: false, engine: engine, into: &$0)
          }
        case .failUnstarted(let uid, let code):
          run {
            FailTaskRule.apply(
              daemon.task(uid), SimURLError(code), freeingConnection: false, engine: engine, into: &$0)
          }
        case .inconsistency(let invariant, let message): inconsistency(invariant, message)
        case .enqueue(let uid):
          run { AdmissionPassRule.enqueue(daemon.task(uid), engine: engine, into: &$0) }
        case .armChallengeTimeout(let uid, let generation, let at):
          let timer = scheduler.schedule(.challengeTimeout(uid: uid, generation: generation), at: at)
          engine.tasks[daemon.task(uid)].challenge.timerArmed(timer)
        case .cancelEvent(let handle): scheduler.cancel(handle)
        case .finish(let uid): run { FinishTaskRule.apply(daemon.task(uid), engine: engine, into: &$0) }
        case .armResourceTimer(let uid, let after, let firstResume):
          let task = daemon.task(uid)
          let timer = scheduler.schedule(.resourceTimeout(uid: uid), after: after)
          if let sequence = firstResume {
            engine.tasks[task].record.resumed(sequence: sequence, resourceTimer: timer, deadline: now + after)
          } else {
            engine.tasks[task].record.resumedByApp(resourceTimer: timer, deadline: now + after)
          }
        case .failHoldingConnection(let uid, let code):
          run {
            FailTaskRule.apply(
              daemon.task(uid), SimURLError(code), freeingConnection: true, engine: engine, into: &$0)
          }
        case .reportBodyDone(let uid): run { engine.reportBodyDone(daemon.task(uid), into: &$0) }
        }
      }
      effects.removeAll()
      guard let next else {
        spareEffects.append(effects)
        return
      }
      fill(after: next, into: &effects)
    }
  }

  /// Arms the one re-evaluation timer for `time` unless one is armed as early; a later one is
  /// replaced.
  private func requestReevaluation(at time: SimTime) {
    guard time > now, daemon.needsReevaluation(at: time) else { return }
    if let replaced = daemon.reevaluation?.handle { scheduler.cancel(replaced) }
    daemon.armedReevaluation(at: time, handle: scheduler.schedule(.reevaluate, at: time))
  }

  /// Tells the invariant checker what happened, and records what it finds.
  private func observe(_ observation: Observation) {
    switch observation {
    case .completionHandlerCalled(let session, let wake, let calls):
      report(checker.completionHandlerCalled(session: session, wake: wake, calls: calls))
    case .attemptStarted(let uid, let firstStart): checkStart(daemon.task(uid), firstStart: firstStart)
    case .response(let uid, let status): checkProtectedResponse(daemon.task(uid), status: status)
    case .taskEnded(let uid): checker.taskEnded(uid)
    case .taskFinished(let uid): checker.taskFinished(uid)
    }
  }

  /// Goes back into the rule that waited for the app's answer: it appends to `effects`.
  private func fill(after step: AfterApp, into effects: inout EffectBuffer) {
    switch step {
    case .backgroundTimeExpired(let expiring, let next):
      BackgroundTimeExpiredRule.afterHandler(expiring, next: next, engine: engine, into: &effects)
    case .continuedExpired(let identifier, let ending):
      engine.continuedExpirationReturned(identifier, ending: ending, into: &effects)
    case .continuedStarted: engine.startNextContinued(into: &effects)
    case .enteredForeground: LaunchAppRule.enteredForeground(into: &effects)
    case .resumedDefaultTransfers: LaunchAppRule.resumedTransfers(engine: engine, into: &effects)
    case .enteredBackground: BackgroundAppRule.enteredBackground(engine: engine, into: &effects)
    }
  }
}

// MARK: The invariant checks
/// The facade's side of the invariant checks: it hands `InvariantChecker` what happened and a
/// snapshot after each event, and records the first finding as the run's violation.
extension Simulation {
  /// How many trace lines a violation keeps.
  static let violationTraceLines = 12

  /// Records a broken invariant (the first one wins) and stops the run after the current event.
  func violate(_ invariant: Invariant, _ message: String) {
    guard invariantViolation == nil else { return }
    let lines = trace.events.suffix(Self.violationTraceLines).map(\.jsonLine)
    let violation = InvariantViolation(invariant: invariant, time: now, message: message, lastTrace: lines)
    invariantViolation = violation
    stopRequested = true
    onInvariantViolation?(violation)
  }

  /// Records the first of `findings`, if any.
  func report(_ findings: [InvariantChecker.Finding]) {
    if let first = findings.first { violate(first.invariant, first.message) }
  }

  /// An impossible state: a recorded violation while invariants are checked, a trap otherwise.
  func inconsistency(_ invariant: Invariant, _ message: String) {
    if checksInvariants {
      violate(invariant, message)
    } else {
      preconditionFailure("internal inconsistency: \(message)")
    }
  }

  /// Invariant `protectedResourceNeedsCredential`, as a response is recorded.
  func checkProtectedResponse(_ task: SimURLSessionTask, status: Int) {
    let url = task.currentURL
    guard (200..<300).contains(status), links.server.resource(url)?.auth.isEmpty == false,
      !task.challenge.isAuthenticated(for: url)
    else { return }
    violate(
      .protectedResourceNeedsCredential,
      "task '\(task.name)' got status \(status) from \(url.string), which requires a credential it never presented"
    )
  }

  /// The invariants that can be checked from the state after an event, on the tasks that may
  /// have changed. O(changed tasks + changed queues).
  func checkInvariants() {
    let queues = engine.takeChangedQueueCounts()
    let uids = checker.tasksToCheck(
      changedRows: engine.tasks.takeChangedRows(), network: engine.links.network, queues: queues)
    report(
      checker.check(after: engine.snapshot(of: uids.lazy.map { self.engine.daemon.task($0) }, queues: queues))
    )
  }

  /// The start conditions, at the moment `task` starts or retries.
  func checkStart(_ task: SimURLSessionTask, firstStart: Bool) {
    report(checker.checkStart(engine.startFacts(task, firstStart: firstStart)))
  }

  /// A trace record as it is recorded.
  func observeForInvariants(_ kind: String, _ fields: [TraceField]) {
    report(checker.observe(kind, fields, in: engine.recordContext))
  }

  /// A `handleEvents` completion handler was called (`callCount` already counts this call).
  func checkCompletionHandlerCall(_ handler: BackgroundCompletionHandler) {
    report(
      checker.completionHandlerCalled(
        session: handler.identifier, wake: handler.wakeNumber, calls: handler.callCount))
  }

  /// The invariants that hold only once the run is over: every completed download reached the
  /// app, is still queued for it, or a lint says it was lost; and every ended task's bytes add up.
  /// Call after the last `run(until:)`; does nothing when invariants are off or one already broke.
  public func checkFinalInvariants() {
    guard checksInvariants, invariantViolation == nil else { return }
    let lintedSessions = Set(
      trace.events.filter {
        $0.is(.lint) && $0["rule"] == .string(LintRule.sessionNotRecreated.rawValue)
      }
      .compactMap { $0["session"]?.description }.map(WrittenKey.init))
    report(
      checker.checkFinal(
        tasks: engine.allTaskFacts, queuedDownloads: engine.queuedDownloads(),
        lintedSessions: lintedSessions))
  }
}
