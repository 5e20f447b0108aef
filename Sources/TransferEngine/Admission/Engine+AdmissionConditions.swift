import SimKernel

extension Engine {
  /// The conditions admission decides on, now: the device, the app's state, the rate limiter,
  /// the discretionary knobs and the lock after a restart.
  var admissionConditions: Admission.Conditions {
    Admission.Conditions(
      now: now, network: links.network, power: links.power, appState: lifecycle.state,
      rateLimiterExpiry: rateLimiter.expiry, discretionary: policy.discretionary,
      deviceLocked: links.lockedSinceRestart,
      connectionSlack: injectedFault == .connectionLimitOffByOne ? 1 : 0)
  }
}
