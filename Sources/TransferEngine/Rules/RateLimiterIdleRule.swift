import SimKernel

/// Rule: the rate limiter's idle-reset time comes (behavior.md, "The rate limiter").
///
/// No wake followed within `idleResetFactor x delay` of the wake that set the delay: the delay
/// returns to its initial value, traced, and every waiting task is decided again (one held by
/// the limiter may start). A stale timer (a wake or reset came since it was armed) does nothing.
enum RateLimiterIdleRule {
  /// Applies the timer armed at the limiter's `generation` and appends what follows to `effects`.
  static func apply(
    generation: UInt32, now: SimTime, to rateLimiter: inout RateLimiter, into effects: inout EffectBuffer
  ) {
    guard generation == rateLimiter.generation, rateLimiter.reset(at: now) else { return }
    effects.append(.trace(.rateLimiterReset, [TraceField("reason", .string("idle"))]))
    effects.append(.reevaluateWaiting)
  }
}
