import SimKernel

/// Rule: a session's queued delegate events are due (behavior.md, "Delegate delivery", "Waking
/// the app and the completion-handler contract").
///
/// They go to the app only while it runs with the session attached, not after its completion
/// handler came back early (the rest waits for the next wake or launch), and not while the app
/// is still in a slow callback (tried again when it is free). The interpreter hands the events
/// over one by one (`AppCall.deliverPending`); then, during a wake, `didFinishEvents` follows
/// once the session has nothing left (`eventsDone`).
enum DeliverRule {
  static func apply(sessionIndex: Int, engine: Engine, into effects: inout EffectBuffer) {
    let record = engine.daemon.sessionRecords[sessionIndex]
    guard engine.lifecycle.state.isRunning, record.appSession != nil else { return }
    if engine.wakes.deliveryHeld(record.identifier) { return }
    if engine.deliveryWaitsForApp(record, into: &effects) { return }
    effects.append(.callApp(.deliverPending(sessionIndex: sessionIndex)))
  }

  /// The app took what it could: true when `didFinishEvents` is owed now (traced here; the
  /// interpreter calls it on the session object the events went to).
  static func eventsDone(_ record: DaemonSession, engine: Engine, into effects: inout EffectBuffer) -> Bool {
    guard record.pending.isEmpty, engine.lifecycle.state.isRunning,
      engine.wakes.eventsDelivered(record.identifier)
    else { return false }
    effects.append(.trace(.delegateDidFinishEvents, [TraceField("session", .string(record.identifier))]))
    return true
  }
}

extension Engine {
  /// True when the app's main thread is busy now: the delivery is tried again when it is free.
  func deliveryWaitsForApp(_ record: DaemonSession, into effects: inout EffectBuffer) -> Bool {
    guard let stretch = appBusy.busy(at: now) else { return false }
    effects.append(.schedule(.deliver(sessionIndex: record.index), at: stretch.until))
    return true
  }
}
