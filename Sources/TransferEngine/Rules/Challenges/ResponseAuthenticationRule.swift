import SimKernel

/// Rule: a task's response headers arrive, before redirects and the body (behavior.md,
/// "Authentication challenges"): a resource that requires a credential challenges each task
/// that has not authenticated for it.
///
/// A credential the task presented comes back accepted (traced `task.authenticated`, the
/// response goes on) or refused (a new challenge in the same protection space, or the 401 once
/// the failures reach `challenge.maxFailures` or no space is left). A task not yet
/// authenticated for a protected URL is challenged in its first protection space.
enum ResponseAuthenticationRule {
  /// What becomes of the response.
  enum Outcome: Equatable {
    /// No credential needed, or one accepted: the response goes on.
    case passes
    /// Authentication took the attempt over: a challenge was raised, or the 401 answered.
    case takenOver
  }

  /// Applies the response of `task`'s attempt; `skipsAuthentication` is the engine fault that
  /// lets a protected response through (for the invariant checker's own tests).
  static func apply(
    _ task: SimURLSessionTask, engine: Engine, skipsAuthentication: Bool, into effects: inout EffectBuffer
  ) -> Outcome {
    let url = task.currentURL
    let spaces = engine.links.server.resource(url)?.auth ?? []
    if let arrived = engine.tasks[task].challenge.credentialArrived(at: url) {
      if arrived.accepted {
        effects.append(
          .trace(
            .taskAuthenticated,
            [TraceField("task", .string(task.name)), TraceField("session", .string(task.session.identifier))])
        )
        return .passes
      }
      if task.challenge.failures >= engine.policy.challenge.maxFailures || arrived.space >= spaces.count {
        engine.respondUnauthorized(task, into: &effects)
      } else {
        engine.raiseChallenge(task, space: arrived.space, into: &effects)
      }
      return .takenOver
    }
    guard !spaces.isEmpty, !task.challenge.isAuthenticated(for: url), !skipsAuthentication else {
      return .passes
    }
    engine.raiseChallenge(task, space: 0, into: &effects)
    return .takenOver
  }
}
