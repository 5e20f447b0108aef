import SimKernel

/// Rule: the app calls a completion handler `handleEvents` handed over (behavior.md, "Waking
/// the app and the completion-handler contract").
///
/// The call is traced and counted for the invariant checker (a handler is called once). Once
/// every session of the wake has called back after its events were delivered, the app is
/// suspended; a handler called before its session's events were delivered is linted
/// (`completionHandlerCalledEarly`) and the app is suspended at once, the rest of the events
/// waiting for the next wake or launch. A stale handler (another wake's), or one called while
/// the app is not in the background, changes nothing else.
enum CompletionHandlerCalledRule {
  /// The handler's call, as the rule sees it.
  struct Call: Equatable {
    var session: String
    /// The wake the handler belongs to.
    var wake: Int
    /// How many times the app has called this handler, this call included.
    var calls: Int
  }

  /// Applies `call` to `wakes` and appends what follows to `effects`; `suspendGeneration` is the
  /// lifecycle's generation now (a suspension armed for it is dropped if the app moves on).
  static func apply(
    _ call: Call, now: SimTime, appInBackground: Bool, suspendGeneration: UInt32, wakes: inout WakeContract,
    into effects: inout EffectBuffer
  ) {
    effects.append(.trace(.appCompletionHandlerCalled, [TraceField("session", .string(call.session))]))
    effects.append(
      .observe(.completionHandlerCalled(session: call.session, wake: call.wake, calls: call.calls)))
    switch wakes.handlerCalled(session: call.session, wake: call.wake, appInBackground: appInBackground) {
    case .ignored, .waiting: return
    case .calledEarly:
      effects.append(
        .lint(
          .completionHandlerCalledEarly,
          "the completion handler for '\(call.session)' was called before its events were delivered; "
            + "call it from urlSessionDidFinishEvents(forBackgroundURLSession:)",
          [TraceField("session", .string(call.session))]))
      effects.append(.schedule(.suspendApp(lifecycleGeneration: suspendGeneration), at: now))
    case .allCalled:
      effects.append(.schedule(.suspendApp(lifecycleGeneration: suspendGeneration), at: now))
    }
  }
}

extension CompletionHandlerCalledRule {
  /// Feeds the rule from `engine`: the app's state now and the wake contract.
  static func apply(_ call: Call, engine: Engine, into effects: inout EffectBuffer) {
    apply(
      call, now: engine.now, appInBackground: engine.lifecycle.state == .background,
      suspendGeneration: engine.lifecycle.generation, wakes: &engine.wakes, into: &effects)
  }
}
