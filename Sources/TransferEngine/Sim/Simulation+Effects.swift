import SimKernel

/// The effect interpreter: carries out what a rule (`Rules/`) appended, in order; and the
/// wrapper of every engine-to-app call (its callback's name).
extension Simulation {
  /// The reused buffer for the next rule, or a new one when a rule runs inside another's
  /// effects (then both keep their own order).
  func takeEffectBuffer() -> EffectBuffer {
    guard let buffer = spareEffects else { return EffectBuffer() }
    spareEffects = nil
    return buffer
  }

  /// Performs `effects` in order, then keeps the emptied buffer for the next rule.
  func interpret(_ effects: consuming EffectBuffer) {
    // Most wake checks find nothing to do: hand the buffer back as it is.
    if effects.isEmpty {
      spareEffects = effects
      return
    }
    for effect in effects.effects {
      switch effect {
      case .trace(let kind, let fields): emit(kind, fields)
      case .interrupt(let uid, let reason, let retryNow):
        interrupt(daemon.tasks[Int(uid)], reason: reason, retryNow: retryNow)
      case .requeueAhead(let uid):
        // Only a task the interruption did queue again at once (a background task: a default
        // session's task failed instead) is waiting to reclaim its slot.
        let task = daemon.tasks[Int(uid)]
        if task.machine.isWaiting && task.machine.reclaimsSlot { _ = daemon.insert(task) }
      case .rescheduleLinks: rescheduleLinks()
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
        record.challengesWokeApp()
      case .disconnectBackgroundDataTasks: run { engine.disconnectBackgroundDataTasks(into: &$0) }
      case .endWake: run { EndWakeRule.apply(engine: engine, into: &$0) }
      case .pauseDefaultTransfers: pauseDefaultTransfers()
      case .detachFromApp(let index): daemon.sessionRecords[index].detachFromApp()
      case .disconnect(let uid):
        let task = daemon.tasks[Int(uid)]
        if !task.isFinished {
          let holding = withdraw(task)
          fail(task, SimURLError(.backgroundSessionWasDisconnected), freeingConnection: holding)
        }
      case .afterApp(let step): afterApp(step)
      case .endProcess:
        appProcess.end()
        assertionHandlers = [:]
      case .vanish(let uid, let reason):
        let task = daemon.tasks[Int(uid)]
        if !task.isFinished { vanish(task, reason: reason) }
      case .cancelTask(let uid, let produceResumeData, let reason, let admitting):
        cancelTask(
          daemon.tasks[Int(uid)], produceResumeData: produceResumeData, reason: reason, admitting: admitting)
      case .resumePausedDefaultTransfers: resumePausedDefaultTransfers()
      case .armSessionProgress(let index): armProgressForSession(daemon.sessionRecords[index])
      case .processEnded: processEnded()
      case .extensionEndedByRestart(let name): extensionEnded(name, reason: "reboot")
      case .restartCutsTransfers(let restart, let unlockAt):
        run { RebootRule.cutTransfers(restart: restart, unlockAt: unlockAt, engine: engine, into: &$0) }
      case .stall(let uid): run { engine.stall(daemon.tasks[Int(uid)], into: &$0) }
      case .unstall(let uid): run { engine.unstall(daemon.tasks[Int(uid)], into: &$0) }
      case .armRequestTimeout(let uid, let generation, let after):
        daemon.tasks[Int(uid)].record.idleTimerStarted(
          scheduler.schedule(.requestTimeout(uid: uid, generation: generation), after: after))
      case .admissionPass(let key, let full):
        run { AdmissionPassRule.apply(key: key, full: full, engine: engine, into: &$0) }
      case .explainWait(let uid, let key):
        run { AdmissionPassRule.explainWait(daemon.tasks[Int(uid)], key: key, engine: engine, into: &$0) }
      case .requestReevaluation(let time): requestReevaluation(at: time)
      case .notifyWaitingForConnectivity(let uid): notifyWaitingForConnectivity(daemon.tasks[Int(uid)])
      case .askDelayedRequest(let uid): askDelayedRequest(daemon.tasks[Int(uid)])
      case .beginAttempt(let uid): beginAttempt(daemon.tasks[Int(uid)])
      case .failNotConnected(let uid, let reason):
        var error = SimURLError(.notConnectedToInternet)
        error.networkUnavailableReason = reason
        fail(daemon.tasks[Int(uid)], error, freeingConnection: false)
      case .inconsistency(let invariant, let message): inconsistency(invariant, message)
      case .startWaiting(let key): startWaiting(key: key)
      case .enqueue(let uid): enqueue(daemon.tasks[Int(uid)])
      case .cancel(let uid): cancelTask(daemon.tasks[Int(uid)], produceResumeData: false, reason: nil)
      case .armChallengeTimeout(let uid, let generation, let at):
        let timer = scheduler.schedule(.challengeTimeout(uid: uid, generation: generation), at: at)
        daemon.tasks[Int(uid)].challenge.timerArmed(timer)
      case .cancelEvent(let handle): scheduler.cancel(handle)
      case .respond(let uid, let status): respond(daemon.tasks[Int(uid)], status: status)
      case .recordResponse(let uid, let status): recordResponse(daemon.tasks[Int(uid)], status: status)
      case .finish(let uid): finish(daemon.tasks[Int(uid)])
      case .withdrawAndFail(let uid, let code):
        let task = daemon.tasks[Int(uid)]
        let held = withdraw(task)
        fail(task, SimURLError(code, resume: makeResumeData(task)), freeingConnection: held)
      case .armProgressCheck(let uid, let generation, let at):
        let check = scheduler.schedule(.progress(uid: uid, generation: generation), at: at)
        if let replaced = daemon.tasks[Int(uid)].record.progressCheckArmed(check) {
          scheduler.cancel(replaced)
        }
      case .armProgress(let uid): run { engine.armProgress(daemon.tasks[Int(uid)], into: &$0) }
      case .failTask(let uid, let code, let freeing):
        let task = daemon.tasks[Int(uid)]
        fail(task, SimURLError(code, resume: makeResumeData(task)), freeingConnection: freeing)
      }
    }
    effects.removeAll()
    spareEffects = effects
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
    }
  }

  /// Goes back into the rule that waited for the app's answer.
  private func afterApp(_ step: AfterApp) {
    switch step {
    case .backgroundTimeExpired(let expiring, let next):
      run { BackgroundTimeExpiredRule.afterHandler(expiring, next: next, engine: engine, into: &$0) }
    case .continuedExpired(let identifier, let ending):
      run { engine.continuedExpirationReturned(identifier, ending: ending, into: &$0) }
    case .continuedStarted: run { engine.startNextContinued(into: &$0) }
    case .enteredForeground: run { LaunchAppRule.enteredForeground(into: &$0) }
    case .resumedDefaultTransfers: run { LaunchAppRule.resumedTransfers(engine: engine, into: &$0) }
    case .enteredBackground: run { BackgroundAppRule.enteredBackground(engine: engine, into: &$0) }
    }
  }

  /// Calls the app's code for `call`, under the callback's name (`inAppCallback`).
  private func callApp(_ call: AppCall) {
    let context = AppContext(simulation: self)
    switch call {
    case .launch(let reason):
      if let app = appProcess.launch() {
        inAppCallback("didFinishLaunching") { app.didFinishLaunching(context, reason: reason) }
      }
    case .runLateTimers: runLateTimers()
    case .handleEvents(let identifier, let number):
      let handler = BackgroundCompletionHandler(identifier: identifier, wakeNumber: number, simulation: self)
      inAppCallback("handleEventsForBackgroundURLSession") {
        installedApp?.handleEventsForBackgroundURLSession(
          context, identifier: identifier, completionHandler: handler)
      }
    case .assertionExpiration(let identifier):
      if let handler = assertionHandlers[identifier] { handler(context) }
    case .willEnterForeground: installedApp?.willEnterForeground(context)
    case .didEnterBackground: installedApp?.didEnterBackground(context)
    case .continuedLaunch(let identifier):
      if let entry = continued.entry(identifier) {
        inAppCallback("continuedProcessingLaunch") { entry.launch(context, entry.identifier) }
      }
    case .continuedExpiration(let identifier):
      if let handler = continued.entry(identifier)?.expiration {
        inAppCallback("continuedProcessingExpiration") { handler(context) }
      }
    case .deliverPending(let index): deliverPending(daemon.sessionRecords[index])
    case .progress(let uid, let up, let step, let done, let size):
      let task = daemon.tasks[Int(uid)]
      guard let session = task.session.appSession else { return }
      if up {
        session.delegate?.urlSession(
          session, task: task, didSendBodyData: step, totalBytesSent: done, totalBytesExpectedToSend: size)
      } else {
        session.delegate?.urlSession(
          session, downloadTask: task, didWriteData: step, totalBytesWritten: done,
          totalBytesExpectedToWrite: size)
      }
    }
  }

  /// Runs an engine-to-app call under its callback's name, so time the app spends in it is
  /// named in the trace and the lint.
  func inAppCallback<R>(_ name: String, task: String? = nil, _ call: () -> R) -> R {
    let outer = appBusy.current
    appBusy.current = AppBusyTime.Callback(name: name, task: task)
    defer { appBusy.current = outer }
    return call()
  }
}

/// Delegate delivery as the interpreter performs it: the app's delegate calls, one event at a
/// time, each traced as it is handed over; the rules around them are in `Rules/Delivery/`.
extension Simulation {
  /// Hands a session's queued events to the app (`AppCall.deliverPending`, once
  /// `Rules/Delivery/DeliverRule.swift` found it can take them); then, during a wake,
  /// `didFinishEvents` once the session has nothing left.
  ///
  /// The queue is taken out before any delegate runs, so app code always sees the daemon's
  /// records consistent; events it causes are queued behind and delivered in the next round,
  /// in the order they happened. Events the app can no longer take (it stopped running, or
  /// dropped the session) go back to the front of the queue.
  private func deliverPending(_ record: DaemonSession) {
    guard lifecycle.state.isRunning, let session = record.appSession else { return }
    while lifecycle.state.isRunning && record.attached === session {
      let batch = record.takePending()
      if batch.isEmpty { break }
      var delivered = 0
      while delivered < batch.count && lifecycle.state.isRunning && record.attached === session {
        // Reactions to one delivery can start a fan-out within this one event.
        if budgetCheckpoint() { break }
        let event = batch[delivered]
        let callback = event.callback
        inAppCallback(callback.name, task: callback.task) { deliver(event, to: session) }
        delivered += 1
        if appBusy.busy(at: now) != nil { break }
      }
      if delivered < batch.count {
        record.putBack(batch[delivered...])
        _ = waitsForApp(record)
        break
      }
      if waitsForApp(record) { return }
    }
    var effects = takeEffectBuffer()
    let finished = DeliverRule.eventsDone(record, engine: engine, into: &effects)
    interpret(effects)
    guard finished else { return }
    inAppCallback("urlSessionDidFinishEvents") {
      session.delegate?.urlSessionDidFinishEvents(forBackgroundURLSession: session)
    }
  }

  /// `Engine.deliveryWaitsForApp`, its retry scheduled.
  private func waitsForApp(_ record: DaemonSession) -> Bool {
    var waits = false
    run { waits = engine.deliveryWaitsForApp(record, into: &$0) }
    return waits
  }

  private func deliver(_ event: DelegateEvent, to session: SimURLSession) {
    let delegate = session.delegate
    switch event {
    case .didResumeAtOffset(let task, let offset, let total):
      emit(
        .delegateDidResumeAtOffset,
        [
          TraceField("task", .string(task.name)), TraceField("offset", .int(offset)),
          TraceField("total", .int(total)),
        ])
      delegate?.urlSession(session, downloadTask: task, didResumeAtOffset: offset, expectedTotalBytes: total)
    case .didWriteData(let task, let bytesWritten, let total):
      emit(
        .delegateDidWriteData,
        [
          TraceField("task", .string(task.name)), TraceField("totalBytesWritten", .int(total)),
          TraceField("totalBytesExpectedToWrite", .int(total)),
        ])
      delegate?.urlSession(
        session, downloadTask: task, didWriteData: bytesWritten, totalBytesWritten: total,
        totalBytesExpectedToWrite: total)
    case .didFinishDownloading(let task):
      var fields = [
        TraceField("task", .string(task.name)), TraceField("bytes", .int(task.countOfBytesReceived)),
      ]
      // The app identifies a download after a relaunch by what it stored in taskDescription (seed 003).
      if let description = task.taskDescription {
        fields.append(TraceField("description", .string(description)))
      }
      // A session with a shared container downloads into it, where app and extension both see it [A].
      let group = task.session.configuration.sharedContainerIdentifier
      if let group { fields.append(TraceField("sharedContainer", .string(group))) }
      emit(.delegateDidFinishDownloading, fields)
      checker.deliveredDownload(task.uid)
      let file = DownloadedFile(task: task, bytes: task.countOfBytesReceived, sharedContainer: group)
      delegate?.urlSession(session, downloadTask: task, didFinishDownloadingTo: file)
      if file.movedTo == nil {
        lint(
          .downloadedFileLost,
          "the file of '\(task.name)' was not moved in didFinishDownloadingTo; the system deletes it when the call "
            + "returns, so move it into the app's container there",
          [TraceField("task", .string(task.name))])
      }
    case .didSendBodyData(let task, let bytesSent, let total):
      delegate?.urlSession(
        session, task: task, didSendBodyData: bytesSent, totalBytesSent: total,
        totalBytesExpectedToSend: total)
    case .didReceiveData(let task, let bytes):
      emit(
        .delegateDidReceiveData, [TraceField("task", .string(task.name)), TraceField("bytes", .int(bytes))])
      delegate?.urlSession(session, dataTask: task, didReceiveData: bytes)
    case .didComplete(let task, let error):
      var fields = [TraceField("task", .string(task.name))]
      if let error {
        fields.append(TraceField("error", .string(error.code.name)))
        fields.append(TraceField("code", .int(Int64(error.code.rawValue))))
        if let reason = error.cancelReason { fields.append(TraceField("reason", .string(reason.name))) }
        if let data = error.resumeContents {
          fields.append(TraceField("resumeDataOffset", .int(data.offset)))
        }
        if let unavailable = error.networkUnavailableReason {
          fields.append(TraceField("networkUnavailableReason", .string(unavailable.name)))
        }
      } else {
        fields.append(TraceField("error", .string("none")))
        if let status = task.statusCode { fields.append(TraceField("status", .int(Int64(status)))) }
      }
      emit(.delegateDidComplete, fields)
      checker.deliveredCompletion(task.uid)
      delegate?.urlSession(session, task: task, didCompleteWithError: error)
    case .didBecomeInvalid(let invalidated):
      invalidated.deliverInvalidation {
        emit(
          .delegateDidBecomeInvalid,
          [TraceField("session", .string(invalidated.identifier)), TraceField("error", .string("none"))])
      }
    case .willBeginDelayedRequest(let task):
      guard DelayedRequestAnsweredRule.asks(task) else { return }
      emit(
        .delegateWillBeginDelayedRequest,
        [TraceField("task", .string(task.name)), TraceField("url", .string(task.currentURL.string))])
      let answer =
        delegate?.urlSession(session, task: task, willBeginDelayedRequestTo: task.currentURL)
        ?? .continueLoading
      run { DelayedRequestAnsweredRule.apply(task, answer, engine: engine, into: &$0) }
    case .willPerformHTTPRedirection(let task, let target, let generation):
      // Asked of the attempt that met the redirect; if it ended meanwhile there is no question.
      guard task.machine.generation == generation, !task.isFinished else { return }
      emit(
        .delegateWillPerformHTTPRedirection,
        [TraceField("task", .string(task.name)), TraceField("to", .string(target.string))])
      let follow = delegate?.urlSession(session, task: task, willPerformHTTPRedirectionTo: target) ?? true
      redirectDecided(task, to: target, follow: follow, generation: generation)
    case .didReceiveChallenge(let task, let challenge, let generation):
      // Asked of the attempt that met it; if that attempt ended meanwhile there is no question.
      guard ChallengeAnsweredRule.asks(task, generation: generation) else { return }
      emit(.delegateDidReceiveChallenge, [TraceField("task", .string(task.name))] + challenge.traceFields)
      // The session delegate first for a session-level challenge, when it answers, else the task
      // delegate; without a delegate, default handling.
      var answer = SimAuthChallengeDisposition.performDefaultHandling
      if let delegate {
        if challenge.method.isSessionLevel,
          let sessionAnswer = delegate.urlSession(session, didReceive: challenge)
        {
          answer = sessionAnswer
        } else {
          answer = delegate.urlSession(session, task: task, didReceive: challenge)
        }
      }
      run { ChallengeAnsweredRule.apply(task, answer, generation: generation, engine: engine, into: &$0) }
    }
  }

}
