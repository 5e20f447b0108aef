import SimKernel

/// Entries that code still written as `extension Simulation` calls, kept with their old names
/// while the rules behind them move into rooms (`Rules/`); each runs its room and interprets
/// the effects. They go once every caller is a room itself (issue 26).
extension Simulation {
  /// `Engine.requestWakeCheck`.
  func requestWakeCheck() { run { engine.requestWakeCheck(into: &$0) } }

  /// `Rules/Wake/EndWakeRule.swift`.
  func endWake() { run { EndWakeRule.apply(engine: engine, into: &$0) } }

  /// `Rules/Challenges/ResponseAuthenticationRule.swift`: true when authentication took the
  /// attempt over.
  func authenticationTakesOver(_ task: SimURLSessionTask) -> Bool {
    var outcome = ResponseAuthenticationRule.Outcome.passes
    run {
      outcome = ResponseAuthenticationRule.apply(
        task, engine: engine, skipsAuthentication: injectedFault == .skipsAuthentication, into: &$0)
    }
    return outcome == .takenOver
  }

  /// `Rules/DelayedRequests/DelayedRequestAskRule.swift`.
  func askDelayedRequest(_ task: SimURLSessionTask) {
    run { DelayedRequestAskRule.apply(task, engine: engine, into: &$0) }
  }
}
