import SimKernel

/// Rule: a wake check runs (behavior.md, "Waking the app and the completion-handler contract").
///
/// The app is woken in the background when it is not running, Background App Refresh is on,
/// it was not force quit, the device was unlocked since its restart, and some session is owed a
/// wake. Then the rate limiter's delay grows first (before the app is told why it woke), the
/// wake begins, the app is resumed (its late timers run) or relaunched (`didFinishLaunching`),
/// the completion-handler timeout is armed, and each owed session gets `handleEvents` and a
/// delivery; then every waiting task is decided again.
enum WakeCheckRule {
  /// A session, as the rule sees it.
  struct Session: Equatable {
    /// The daemon record's index (`DaemonSession.index`).
    var index: Int
    var identifier: String
    /// A background session whose configuration sends launch events.
    var wakesApp: Bool
    /// It holds delegate events for the app.
    var hasPending: Bool
    /// It could not connect (a session that cannot connect wakes no one).
    var connectionFailed: Bool
    /// An extension holds it: the app waits for the extension to end.
    var heldByExtension: Bool
    /// Its work finished while the app was away (`DaemonSession.wantsWake`).
    var wantsWake: Bool
    /// Its unfinished tasks.
    var outstanding: Int

    /// Owed a wake: all its work is done, or it holds a question (a delayed request, a
    /// challenge) the app must answer; `awaitsAnswer` (which scans the session's queue) is asked
    /// only when it decides.
    func owed(awaitsAnswer: (Session) -> Bool) -> Bool {
      guard wakesApp, hasPending, !connectionFailed, !heldByExtension else { return false }
      return (wantsWake && outstanding == 0) || awaitsAnswer(self)
    }
  }

  /// What the rule reads of the device and the policy.
  struct Facts {
    var now: SimTime
    var backgroundAppRefresh: Bool
    /// Not unlocked since the last restart.
    var deviceLocked: Bool
    var completionHandlerTimeout: SimDuration
    var backgroundTaskLimit: SimDuration
  }

  /// Runs the check: changes the components a wake changes and appends what follows to
  /// `effects`. `sessions` (in record order) is asked only when the app may be woken.
  static func apply(
    _ facts: Facts, lifecycle: inout AppLifecycle, rateLimiter: inout RateLimiter, wakes: inout WakeContract,
    assertions: inout BackgroundAssertions, sessions: () -> [Session], awaitsAnswer: (Session) -> Bool,
    into effects: inout EffectBuffer
  ) {
    wakes.checkRan()
    guard !lifecycle.state.isRunning, facts.backgroundAppRefresh, !lifecycle.forceQuit, !facts.deviceLocked
    else { return }
    let owed = sessions().filter { $0.owed(awaitsAnswer: awaitsAnswer) }
    guard !owed.isEmpty else { return }
    let now = facts.now
    // The delay grows before the app is told why it woke [O].
    let delay = rateLimiter.wake(at: now)
    effects.append(
      .trace(
        .rateLimiterWake,
        [
          TraceField("delay", .duration(delay)),
          TraceField("wake", .int(Int64(rateLimiter.delayAtWake.count))),
        ]))
    if let idle = rateLimiter.idleResetTime {
      effects.append(.schedule(.rateLimiterIdle(generation: rateLimiter.generation), at: idle))
    }
    let number = wakes.begin(sessions: owed.map(\.identifier))
    for session in owed { effects.append(.sessionWoken(sessionIndex: session.index)) }
    // The woken app's assertions get the background time from now (their expiry is armed when
    // one is begun: the app is not in the background yet).
    assertions.enteredBackground(at: now, limit: facts.backgroundTaskLimit)
    switch lifecycle.wake() {
    case .resumed:
      effects.append(.trace(.appResume, [TraceField("reason", .string("background"))]))
      effects.append(.callApp(.runLateTimers))
    case .relaunched:
      effects.append(.trace(.appLaunch, [TraceField("reason", .string("background"))]))
      effects.append(.callApp(.launch(.background)))
    case nil:
      preconditionFailure("internal inconsistency: wake of an app in state \(lifecycle.state)")
    }
    effects.append(
      .schedule(.completionHandlerTimeout(wake: number), at: now + facts.completionHandlerTimeout))
    for session in owed {
      effects.append(.trace(.delegateHandleEvents, [TraceField("session", .string(session.identifier))]))
      effects.append(.callApp(.handleEvents(session: session.identifier, wake: number)))
      effects.append(.schedule(.deliver(sessionIndex: session.index), at: now))
    }
    effects.append(.reevaluateWaiting)
  }
}

extension WakeCheckRule {
  /// Feeds the rule from `engine`: the device, the policy, the components a wake changes, and a
  /// view of each daemon session record.
  static func apply(engine: Engine, into effects: inout EffectBuffer) {
    let policy = engine.policy
    apply(
      Facts(
        now: engine.now, backgroundAppRefresh: engine.deviceModel.backgroundAppRefresh,
        deviceLocked: engine.links.lockedSinceRestart,
        completionHandlerTimeout: policy.completionHandlerTimeout,
        backgroundTaskLimit: policy.backgroundTaskLimit),
      lifecycle: &engine.lifecycle, rateLimiter: &engine.rateLimiter, wakes: &engine.wakes,
      assertions: &engine.assertions,
      // Only the records holding delegate events, in record order: no other is owed a wake
      // (`Session.owed`), and an app with many sessions has few such records at any one time
      // (`SessionWorkIndex`).
      sessions: {
        var sessions: [Session] = []
        engine.daemon.sessionWork.pending.forEach { index in
          let record = engine.daemon.sessionRecords[index]
          guard !record.pending.isEmpty else { return }
          sessions.append(
            Session(
              index: record.index, identifier: record.identifier,
              wakesApp: record.isBackground && record.configuration.sessionSendsLaunchEvents,
              hasPending: true, connectionFailed: record.connectionError != nil,
              heldByExtension: record.heldByExtension, wantsWake: record.wantsWake,
              outstanding: record.outstanding))
        }
        return sessions
      },
      awaitsAnswer: { session in
        let record = engine.daemon.sessionRecords[session.index]
        return record.awaitsDelayedRequestAnswer(wakesApp: policy.delayedRequest.wakesApp)
          || record.awaitsChallengeAnswer()
      }, into: &effects)
  }
}

extension Engine {
  /// Something may have made the app owed a wake: a wake check is scheduled now, unless one is
  /// already pending.
  func requestWakeCheck(into effects: inout EffectBuffer) {
    if wakes.requestCheck() { effects.append(.schedule(.wakeCheck, at: now)) }
  }
}
