import SimKernel

/// The daemon's per-app resume rate limiter (behavior.md, "The rate limiter").
///
/// Each wake grows the delay (`0 -> firstDelay -> delay * growth`, capped at `maxDelay`); a
/// task created while the app is not in the foreground may not start before `expiry`. The
/// delay returns to `initialDelay` when the app comes to the foreground or when no wake
/// follows within `idleResetFactor x delay`.
struct RateLimiter {
  let policy: RateLimiterPolicy
  private(set) var delay: SimDuration
  /// When the current delay was set (the last wake, or the start).
  private(set) var setAt: SimTime = .zero
  private(set) var wakesSinceReset = 0
  /// Total wakes, numbered from 1, and the delay each set (for `delayAtWake` expectations).
  private(set) var delayAtWake: [SimDuration] = []
  /// Bumped at every wake or reset so a stale idle-reset timer does nothing.
  private(set) var generation: UInt32 = 0

  init(policy: RateLimiterPolicy) {
    self.policy = policy
    self.delay = policy.initialDelay
  }

  /// The instant before which a background-created task may not start.
  var expiry: SimTime { setAt + delay }

  /// Applies a wake at `now` and returns the new delay.
  mutating func wake(at now: SimTime) -> SimDuration {
    var next = wakesSinceReset == 0 ? policy.firstDelay : delay.scaled(by: policy.growth)
    if let cap = policy.maxDelay, next > cap { next = cap }
    delay = next
    setAt = now
    wakesSinceReset += 1
    delayAtWake.append(next)
    generation &+= 1
    return next
  }

  /// When an idle reset would happen if no further wake comes, or nil if nothing to reset.
  var idleResetTime: SimTime? {
    guard wakesSinceReset > 0 else { return nil }
    return setAt + delay.scaled(by: policy.idleResetFactor)
  }

  /// Resets the delay; false when there was nothing to reset.
  mutating func reset(at now: SimTime) -> Bool {
    guard wakesSinceReset > 0 || delay != policy.initialDelay else { return false }
    delay = policy.initialDelay
    setAt = now
    wakesSinceReset = 0
    generation &+= 1
    return true
  }
}
