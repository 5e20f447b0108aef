import SimKernel

/// Authentication challenges (behavior.md, "Authentication challenges"): a resource that
/// requires a credential challenges each task that has not authenticated for it; the daemon asks
/// the app (waking it for a background session), waits up to `challenge.answerTimeout`, and
/// carries out its answer.
extension Simulation {
  /// Called when a task's response headers arrive, before redirects and the body: true when
  /// authentication took the attempt over (a challenge was raised, or a refused credential's
  /// answer came back). False lets the response through: no credential needed, or one accepted.
  func authenticationTakesOver(_ task: SimURLSessionTask) -> Bool {
    let url = task.currentURL
    let spaces = links.server.resource(url)?.auth ?? []
    if let arrived = task.challenge.credentialArrived(at: url) {
      if arrived.accepted {
        emit(
          .taskAuthenticated,
          [TraceField("task", .string(task.name)), TraceField("session", .string(task.session.identifier))])
        return false
      }
      if task.challenge.failures >= policy.challenge.maxFailures || arrived.space >= spaces.count {
        respondUnauthorized(task)
      } else {
        raiseChallenge(task, space: arrived.space)
      }
      return true
    }
    guard !spaces.isEmpty, !task.challenge.isAuthenticated(for: url), injectedFault != .skipsAuthentication
    else {
      return false
    }
    raiseChallenge(task, space: 0)
    return true
  }

  /// The server answered 401 with protection space `space`: ask the app and wait for its answer.
  private func raiseChallenge(_ task: SimURLSessionTask, space: Int) {
    let url = task.currentURL
    guard let protection = links.server.resource(url)?.auth[safe: space] else {
      respondUnauthorized(task)
      return
    }
    let failures = task.challenge.failures
    let challenge = SimAuthenticationChallenge(
      host: url.host, method: protection.method, realm: protection.realm, previousFailureCount: failures,
      failureResponseStatus: failures > 0 ? 401 : nil)
    let generation = task.machine.generation
    let timer = scheduler.schedule(
      .challengeTimeout(uid: task.uid, generation: generation), after: policy.challenge.answerTimeout)
    task.challenge.challenged(space: space, timer: timer)
    emit(.taskChallenged, [TraceField("task", .string(task.name))] + Self.challengeFields(challenge))
    // A delegate without the methods is not asked: URLSession handles the challenge by default [A].
    guard task.session.asksChallenges else {
      challengeAnswered(task, .performDefaultHandling, generation: generation)
      return
    }
    queueDelegateEvent(.didReceiveChallenge(task, challenge, generation: generation), for: task.session)
    // A background session's daemon wakes or relaunches the app to answer [A].
    requestWakeCheck()
  }

  static func challengeFields(_ challenge: SimAuthenticationChallenge) -> [TraceField] {
    [
      TraceField("level", .string(challenge.method.isSessionLevel ? "session" : "task")),
      TraceField("method", .string(challenge.method.rawValue)), TraceField("realm", .string(challenge.realm)),
      TraceField("previousFailureCount", .int(Int64(challenge.previousFailureCount))),
    ]
  }

  /// Hands a queued challenge to the app: the session delegate first for a session-level one,
  /// when it answers, else the task delegate; without a delegate, default handling.
  func deliverChallenge(
    _ task: SimURLSessionTask, _ challenge: SimAuthenticationChallenge, generation: UInt32,
    to session: SimURLSession
  ) {
    // Asked of the attempt that met it; if that attempt ended meanwhile there is no question.
    guard task.machine.generation == generation, !task.isFinished, task.challenge.awaitedSpace != nil else {
      return
    }
    emit(
      .delegateDidReceiveChallenge, [TraceField("task", .string(task.name))] + Self.challengeFields(challenge)
    )
    var answer = SimAuthChallengeDisposition.performDefaultHandling
    if let delegate = session.delegate {
      if challenge.method.isSessionLevel,
        let sessionAnswer = delegate.urlSession(session, didReceive: challenge)
      {
        answer = sessionAnswer
      } else {
        answer = delegate.urlSession(session, task: task, didReceive: challenge)
      }
    }
    challengeAnswered(task, answer, generation: generation)
  }

  /// Carries out the app's answer to the challenge of attempt `generation`; an answer for an
  /// attempt that ended since (the app cancelled the task meanwhile) changes nothing.
  func challengeAnswered(_ task: SimURLSessionTask, _ answer: SimAuthChallengeDisposition, generation: UInt32)
  {
    guard task.machine.generation == generation, !task.isFinished, task.machine.isActive,
      let space = task.challenge.awaitedSpace
    else { return }
    if let timer = task.challenge.answered() { scheduler.cancel(timer) }
    var fields = [TraceField("task", .string(task.name)), TraceField("disposition", .string(answer.name))]
    if case .useCredential(let credential) = answer {
      fields.append(TraceField("user", .string(credential.user)))
    }
    emit(.taskChallengeAnswered, fields)
    let spaces = links.server.resource(task.currentURL)?.auth ?? []
    switch answer {
    case .useCredential(let credential):
      // The request goes again with the credential: one more round trip before the server's verdict.
      let accepted = spaces[safe: space]?.accepts(credential) ?? false
      task.challenge.presenting(space: space, accepted: accepted)
      scheduler.schedule(.connected(uid: task.uid, generation: generation), after: links.network.latency * 2)
    case .performDefaultHandling:
      respondUnauthorized(task)
    case .cancelAuthenticationChallenge:
      task.challenge.gaveUp()
      cancelTask(task, produceResumeData: false, reason: nil)
    case .rejectProtectionSpace:
      if space + 1 < spaces.count {
        raiseChallenge(task, space: space + 1)
      } else {
        respondUnauthorized(task)
      }
    }
  }

  /// No answer came within `challenge.answerTimeout`: the task fails with -1001 [S].
  func challengeTimedOut(_ task: SimURLSessionTask) {
    guard task.challenge.awaitedSpace != nil else { return }
    _ = task.challenge.answered()
    task.challenge.gaveUp()
    emit(
      .taskChallengeTimedOut,
      [TraceField("task", .string(task.name)), TraceField("session", .string(task.session.identifier))])
    let wasConnected = withdraw(task)
    fail(task, SimURLError(.timedOut, resume: makeResumeData(task)), freeingConnection: wasConnected)
    rescheduleLinks()
  }

  /// The request goes on without a credential: the server's 401 is the response, and completes
  /// the task like any HTTP error status [A]. An upload's body is not sent [S].
  private func respondUnauthorized(_ task: SimURLSessionTask) {
    task.challenge.gaveUp()
    if task.fetchesBody {
      respond(task, status: Self.unauthorizedStatus)
    } else {
      recordResponse(task, status: Self.unauthorizedStatus)
      finish(task)
      rescheduleLinks()
    }
  }

  /// HTTP 401 Unauthorized.
  static let unauthorizedStatus = 401

  /// True when a background session's queue holds a challenge still waiting for the app that has
  /// not woken it yet: the daemon owes the app a wake even though tasks are outstanding [A]. One
  /// wake per challenge: an app that suspends again without taking it (its handler called early,
  /// its session not recreated) is not woken again for it; it waits for a launch or times out.
  func awaitsChallengeAnswer(_ record: DaemonSession) -> Bool {
    record.pending.contains { event in
      guard let task = Self.liveChallenge(event) else { return false }
      return !task.challenge.wokeApp
    }
  }

  /// A wake for `record` began: each challenge it holds has had its wake.
  func challengesWokeApp(_ record: DaemonSession) {
    for event in record.pending { Self.liveChallenge(event)?.challenge.appWoken() }
  }

  /// The task of a queued challenge still waiting for its answer.
  private static func liveChallenge(_ event: DelegateEvent) -> SimURLSessionTask? {
    guard case .didReceiveChallenge(let task, _, let generation) = event,
      task.machine.generation == generation,
      !task.isFinished, task.challenge.awaitedSpace != nil
    else { return nil }
    return task
  }
}

extension Array {
  /// The element at `index`, or nil when out of bounds.
  subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}

extension Simulation {
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
}
