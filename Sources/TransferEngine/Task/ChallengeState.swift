import SimKernel

/// One task's authentication with the server: which protection space is being offered, how
/// many wrong credentials it presented, the challenge waiting for the app's answer, and the URLs
/// it has authenticated for (a retry or a resumed attempt reuses the credential, as the
/// session's credential cache would).
///
/// A struct kept in the task and changed in place, named after the engine's inputs.
struct ChallengeState {
  /// What the current attempt is doing about authentication.
  enum Phase: Equatable {
    /// Not challenged in this attempt.
    case idle
    /// Waiting for the app's answer to a challenge in protection space `space`.
    case awaitingAnswer(space: Int)
    /// The credential for `space` is on its way (one round trip); `accepted` says how the
    /// server will take it.
    case presenting(space: Int, accepted: Bool)
  }

  private(set) var phase = Phase.idle
  /// Wrong credentials presented so far (`previousFailureCount` of the next challenge).
  private(set) var failures = 0
  /// Challenges raised so far (the trace and the account read it).
  private(set) var raised = 0
  /// URLs the task presented an accepted credential for.
  private(set) var authenticated: [SimURL] = []
  /// The answer timer of the challenge awaiting an answer.
  private(set) var timeoutHandle: EventHandle?
  /// The challenge awaiting an answer has woken the app once already.
  private(set) var wokeApp = false

  func isAuthenticated(for url: SimURL) -> Bool { authenticated.contains(url) }

  /// A new attempt connects: whatever the last one was doing is over.
  mutating func attemptStarted() -> EventHandle? {
    phase = .idle
    defer { timeoutHandle = nil }
    return timeoutHandle
  }

  /// The server challenged in `space`; the daemon asks the app and waits (`timerArmed`).
  mutating func challenged(space: Int) {
    phase = .awaitingAnswer(space: space)
    wokeApp = false
    raised += 1
    timeoutHandle = nil
  }

  /// The answer timer of the challenge just raised was armed.
  mutating func timerArmed(_ timer: EventHandle) { timeoutHandle = timer }

  /// A wake began for the session holding this challenge.
  mutating func appWoken() { wokeApp = true }

  /// The app answered; returns the answer timer for the caller to cancel.
  mutating func answered() -> EventHandle? {
    defer { timeoutHandle = nil }
    return timeoutHandle
  }

  /// The app sent a credential the server will take (`accepted`) or refuse.
  mutating func presenting(space: Int, accepted: Bool) {
    phase = .presenting(space: space, accepted: accepted)
  }

  /// The credential's round trip is over: an accepted one authenticates `url`, a refused one
  /// counts as a failure.
  mutating func credentialArrived(at url: SimURL) -> (accepted: Bool, space: Int)? {
    guard case .presenting(let space, let accepted) = phase else { return nil }
    phase = .idle
    if accepted {
      if !authenticated.contains(url) { authenticated.append(url) }
    } else if failures < Int.max {
      failures += 1
    }
    return (accepted, space)
  }

  /// The challenge ended without a credential (default handling, a rejected last space,
  /// too many failures, a timeout, a cancellation).
  mutating func gaveUp() { phase = .idle }

  /// The space of the challenge awaiting an answer, if any.
  var awaitedSpace: Int? {
    if case .awaitingAnswer(let space) = phase { return space }
    return nil
  }
}
