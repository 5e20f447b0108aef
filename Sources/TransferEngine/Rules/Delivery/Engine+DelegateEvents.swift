import SimKernel

extension Engine {
  /// Queues `event` for the app in `record`'s order (behavior.md, "Delegate delivery"): a
  /// delivery is scheduled now when the app runs with the session attached; otherwise the event
  /// waits for a wake or a launch.
  func queueDelegateEvent(_ event: DelegateEvent, for record: DaemonSession, into effects: inout EffectBuffer)
  {
    record.queue(event)
    if lifecycle.state.isRunning && record.appSession != nil {
      effects.append(.schedule(.deliver(sessionIndex: record.index), at: now))
    }
  }
}
