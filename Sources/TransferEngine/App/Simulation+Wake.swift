import SimKernel

/// Waking the app for its background sessions (behavior.md, "Waking the app and the
/// completion-handler contract"): the wake check and the completion-handler inputs are rules in
/// `Rules/`, fed here with the components they change; the end of a wake is still here.
extension Simulation {
  func requestWakeCheck() {
    guard wakes.requestCheck() else { return }
    scheduler.schedule(.wakeCheck, at: now)
  }

  /// A wake check (`Rules/WakeCheckRule.swift`): wakes the app if a session is owed a wake [A].
  func wakeCheck() {
    var effects = takeEffectBuffer()
    WakeCheckRule.apply(
      WakeCheckRule.Facts(
        now: now, backgroundAppRefresh: deviceModel.backgroundAppRefresh,
        deviceLocked: links.lockedSinceRestart,
        completionHandlerTimeout: policy.completionHandlerTimeout,
        backgroundTaskLimit: policy.backgroundTaskLimit),
      lifecycle: &lifecycle, rateLimiter: &rateLimiter, wakes: &wakes, assertions: &assertions,
      sessions: {
        self.daemon.sessionRecords.map { record in
          WakeCheckRule.Session(
            index: record.index, identifier: record.identifier,
            wakesApp: record.isBackground && record.configuration.sessionSendsLaunchEvents,
            hasPending: !record.pending.isEmpty, connectionFailed: record.connectionError != nil,
            heldByExtension: record.heldByExtension, wantsWake: record.wantsWake,
            outstanding: record.outstanding)
        }
      },
      awaitsAnswer: { session in
        let record = self.daemon.sessionRecords[session.index]
        return self.awaitsDelayedRequestAnswer(record) || self.awaitsChallengeAnswer(record)
      }, into: &effects)
    interpret(effects)
  }

  /// The app called a completion handler handed over by `handleEvents`
  /// (`Rules/CompletionHandlerCalledRule.swift`).
  func completionHandlerCalled(_ handler: BackgroundCompletionHandler) {
    var effects = takeEffectBuffer()
    CompletionHandlerCalledRule.apply(
      .init(session: handler.identifier, wake: handler.wakeNumber, calls: handler.callCount), now: now,
      appInBackground: lifecycle.state == .background, suspendGeneration: lifecycle.generation, wakes: &wakes,
      into: &effects)
    interpret(effects)
  }

  /// A wake's completion-handler timeout (`Rules/CompletionHandlerTimeoutRule.swift`).
  func completionHandlerTimedOut(wake number: Int) {
    var effects = takeEffectBuffer()
    CompletionHandlerTimeoutRule.apply(
      wake: number,
      .init(
        now: now, appInBackground: lifecycle.state == .background, assertionsOpen: !assertions.open.isEmpty,
        busy: appBusy.busy(at: now), completionHandlerTimeout: policy.completionHandlerTimeout),
      wakes: wakes, recreated: { self.daemon.backgroundSessions[$0]?.appSession != nil }, into: &effects)
    interpret(effects)
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
