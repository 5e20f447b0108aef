import SimKernel

/// Waking the app for its background sessions, and carrying out what `WakeContract` decides
/// (behavior.md, "Waking the app and the completion-handler contract").
extension Simulation {
  func requestWakeCheck() {
    guard wakes.requestCheck() else { return }
    scheduler.schedule(.wakeCheck, at: now)
  }

  /// Sessions whose work is all done while the app was away, or that hold a question (a delayed request, a challenge) for the
  /// app to answer, and that may wake it.
  private func sessionsOwedAWake() -> [DaemonSession] {
    daemon.sessionRecords.filter { record in
      // A session that could not connect wakes no one; one an extension holds waits for it to end.
      guard record.isBackground, record.configuration.sessionSendsLaunchEvents, !record.pending.isEmpty,
        record.connectionError == nil, !record.heldByExtension
      else {
        return false
      }
      return (record.wantsWake && record.outstanding == 0) || awaitsDelayedRequestAnswer(record)
        || awaitsChallengeAnswer(record)
    }
  }

  /// Resumes or relaunches the app in the background if a session is owed a wake [A].
  func wakeIfNeeded() {
    guard !lifecycle.state.isRunning, deviceModel.backgroundAppRefresh, !lifecycle.forceQuit,
      !links.lockedSinceRestart
    else { return }
    let owed = sessionsOwedAWake()
    guard !owed.isEmpty else { return }
    // The delay grows before the app is told why it woke [O].
    let delay = rateLimiter.wake(at: now)
    emit(
      .rateLimiterWake,
      [TraceField("delay", .duration(delay)), TraceField("wake", .int(Int64(rateLimiter.delayAtWake.count)))])
    if let idle = rateLimiter.idleResetTime {
      scheduler.schedule(.rateLimiterIdle(generation: rateLimiter.generation), at: idle)
    }
    let number = wakes.begin(sessions: owed.map(\.identifier))
    for record in owed {
      record.owesWake(false)
      challengesWokeApp(record)
    }
    let context = AppContext(simulation: self)
    // The woken app's assertions get the background time from now (armed when one is begun).
    startBackgroundTime()
    switch lifecycle.wake() {
    case .resumed:
      emit(.appResume, [TraceField("reason", .string("background"))])
      runLateTimers()
    case .relaunched:
      emit(.appLaunch, [TraceField("reason", .string("background"))])
      if let app = appProcess.launch() {
        inAppCallback("didFinishLaunching") { app.didFinishLaunching(context, reason: .background) }
      }
    case nil:
      preconditionFailure("internal inconsistency: wake of an app in state \(lifecycle.state)")
    }
    scheduler.schedule(.completionHandlerTimeout(wake: number), after: policy.completionHandlerTimeout)
    for record in owed {
      emit(.delegateHandleEvents, [TraceField("session", .string(record.identifier))])
      let handler = BackgroundCompletionHandler(
        identifier: record.identifier, wakeNumber: number, simulation: self)
      inAppCallback("handleEventsForBackgroundURLSession") {
        installedApp?.handleEventsForBackgroundURLSession(
          context, identifier: record.identifier, completionHandler: handler)
      }
      scheduler.schedule(.deliver(sessionIndex: record.index), at: now)
    }
    reevaluateAllWaiting()
  }

  /// The app called a completion handler handed over by `handleEvents`.
  func completionHandlerCalled(_ handler: BackgroundCompletionHandler) {
    emit(.appCompletionHandlerCalled, [TraceField("session", .string(handler.identifier))])
    if checksInvariants { checkCompletionHandlerCall(handler) }
    let outcome = wakes.handlerCalled(
      session: handler.identifier, wake: handler.wakeNumber, appInBackground: lifecycle.state == .background)
    switch outcome {
    case .ignored, .waiting: return
    case .calledEarly:
      lint(
        .completionHandlerCalledEarly,
        "the completion handler for '\(handler.identifier)' was called before its events were delivered; "
          + "call it from urlSessionDidFinishEvents(forBackgroundURLSession:)",
        [TraceField("session", .string(handler.identifier))])
      scheduler.schedule(.suspendApp(lifecycleGeneration: lifecycle.generation), at: now)
    case .allCalled:
      scheduler.schedule(.suspendApp(lifecycleGeneration: lifecycle.generation), at: now)
    }
  }

  func completionHandlerTimedOut(wake number: Int) {
    guard let uncalled = wakes.timedOut(wake: number, appInBackground: lifecycle.state == .background) else {
      return
    }
    // Still in a slow callback when the wake's time is up (an open assertion extends it).
    if assertions.open.isEmpty && watchdogKillsBusyApp(had: policy.completionHandlerTimeout) { return }
    // A session the app never recreated cannot reach didFinishEvents; endWake lints the cause.
    for identifier in uncalled where daemon.backgroundSessions[identifier]?.appSession != nil {
      lint(
        .completionHandlerNeverCalled,
        "the completion handler for '\(identifier)' was not called within \(policy.completionHandlerTimeout); "
          + "store it in handleEventsForBackgroundURLSession and call it after urlSessionDidFinishEvents",
        [TraceField("session", .string(identifier))])
    }
    systemSuspend()
  }

  /// Closes the wake record when the app stops running: lints what the wake revealed.
  func endWake() {
    guard let ending = wakes.end() else { return }
    for identifier in ending.sessions {
      if let record = daemon.backgroundSessions[identifier], record.appSession == nil, !record.pending.isEmpty
      {
        lint(
          .sessionNotRecreated,
          "the app was woken for session '\(identifier)' but did not recreate it, so its events stay queued; "
            + "create the session with the same identifier at launch or in handleEventsForBackgroundURLSession",
          [TraceField("session", .string(identifier))])
      }
    }
    if let streak = ending.oneTaskPerWakeStreak {
      lint(
        .oneTaskPerWake,
        "the app started a single task at each of \(streak) consecutive wakes, so the rate limiter "
          + "delay doubles each time; start many tasks at once in one session instead")
    }
  }
}
