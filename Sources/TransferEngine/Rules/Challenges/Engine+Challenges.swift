import SimKernel

/// What the challenge rooms share: raising a challenge and answering 401 without a credential.
extension Engine {
  /// The server answered 401 with protection space `space`: ask the app and wait for its answer
  /// up to `challenge.answerTimeout`. A session whose delegate lacks the methods is not asked:
  /// URLSession handles the challenge by default [A]. A background session's daemon wakes or
  /// relaunches the app to answer [A].
  func raiseChallenge(_ task: SimURLSessionTask, space: Int, into effects: inout EffectBuffer) {
    let url = task.currentURL
    guard let protection = links.server.resource(url)?.auth[safe: space] else {
      respondUnauthorized(task, into: &effects)
      return
    }
    let failures = task.challenge.failures
    let challenge = SimAuthenticationChallenge(
      host: url.host, method: protection.method, realm: protection.realm, previousFailureCount: failures,
      failureResponseStatus: failures > 0 ? 401 : nil)
    let generation = task.machine.generation
    tasks[task].challenge.challenged(space: space)
    let asks = task.session.asksChallenges
    // Answered at once by default: no timer to wait on.
    if asks {
      effects.append(
        .armChallengeTimeout(
          uid: task.uid, generation: generation, at: now + policy.challenge.answerTimeout))
    }
    effects.append(.trace(.taskChallenged, [TraceField("task", .string(task.name))] + challenge.traceFields))
    guard asks else {
      ChallengeAnsweredRule.apply(
        task, .performDefaultHandling, generation: generation, engine: self, into: &effects)
      return
    }
    queueDelegateEvent(
      .didReceiveChallenge(task, challenge, generation: generation), for: task.session, into: &effects)
    requestWakeCheck(into: &effects)
  }

  /// The request goes on without a credential: the server's 401 is the response, and completes
  /// the task like any HTTP error status [A]. An upload's body is not sent [S].
  func respondUnauthorized(_ task: SimURLSessionTask, into effects: inout EffectBuffer) {
    tasks[task].challenge.gaveUp()
    if task.fetchesBody {
      respond(task, status: Self.unauthorizedStatus, into: &effects)
    } else {
      recordResponse(task, status: Self.unauthorizedStatus, into: &effects)
      effects.append(.finish(uid: task.uid))
      rescheduleLinks(after: &effects)
    }
  }

  /// HTTP 401 Unauthorized.
  static let unauthorizedStatus = 401
}

extension SimAuthenticationChallenge {
  /// The fields `task.challenged` and `delegate.didReceiveChallenge` record.
  var traceFields: [TraceField] {
    [
      TraceField("level", .string(method.isSessionLevel ? "session" : "task")),
      TraceField("method", .string(method.rawValue)), TraceField("realm", .string(realm)),
      TraceField("previousFailureCount", .int(Int64(previousFailureCount))),
    ]
  }
}

extension Array {
  /// The element at `index`, or nil when out of bounds.
  subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
