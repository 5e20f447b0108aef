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
      case .requestWakeCheck: requestWakeCheck()
      case .sessionWoken(let index):
        let record = daemon.sessionRecords[index]
        record.owesWake(false)
        challengesWokeApp(record)
      case .disconnectBackgroundDataTasks: disconnectBackgroundDataTasks()
      case .endWake: endWake()
      case .pauseDefaultTransfers: pauseDefaultTransfers()
      case .processEnded: processEnded()
      case .extensionEndedByRestart(let name): extensionEnded(name, reason: "reboot")
      case .vanish(let uid, let reason): vanish(daemon.tasks[Int(uid)], reason: reason)
      case .restartCutsTransfers(let restart, let unlockAt):
        run { RebootRule.cutTransfers(restart: restart, unlockAt: unlockAt, engine: engine, into: &$0) }
      case .cancel(let handle): scheduler.cancel(handle)
      case .stall(let uid): run { engine.stall(daemon.tasks[Int(uid)], into: &$0) }
      case .unstall(let uid): run { engine.unstall(daemon.tasks[Int(uid)], into: &$0) }
      case .armRequestTimeout(let uid, let generation, let after):
        daemon.tasks[Int(uid)].record.idleTimerStarted(
          scheduler.schedule(.requestTimeout(uid: uid, generation: generation), after: after))
      case .armProgress(let uid): armProgress(daemon.tasks[Int(uid)])
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
