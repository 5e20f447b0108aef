import SimKernel

extension Engine {
  /// Queues `didBecomeInvalidWithError` for `session` behind its record's pending delegate
  /// events (after the invalidating call, or after its last task ended).
  func queueInvalidation(_ session: SimURLSession, into effects: inout EffectBuffer) {
    session.invalidationQueued()
    queueDelegateEvent(.didBecomeInvalid(session), for: session.record, into: &effects)
  }
}
