import SimKernel

/// The system's own decisions, taken now on a test's request (as Android WorkManager's
/// `TestDriver` does): `sim.system.endRateLimiterDelay()` and the like. Each is traced the way the
/// engine traces the same decision made on its own, so a trace still explains the run.
public struct SystemDecisions {
  unowned let simulation: Simulation

  /// The rate limiter's delay ends now: it resets as after an idle period (`ratelimiter.reset`
  /// with `reason=test`), and tasks it held are admitted if nothing else holds them.
  public func endRateLimiterDelay() {
    let sim = simulation
    guard sim.rateLimiter.reset(at: sim.now) else { return }
    sim.emit(.rateLimiterReset, [TraceField("reason", .string("test"))])
    sim.reevaluateAllWaiting()
  }

  /// The conditions the policy's discretionary rules wait for hold from now on, for a transfer of
  /// any size: the device is on an unmetered, unconstrained Wi-Fi network, charging, with Low
  /// Power Mode off, as far as the policy requires each, for small or large transfers or below
  /// its battery floor (traced as `network.change` and `power.change`).
  public func satisfyDiscretionaryConditions() {
    let sim = simulation
    let rules = sim.policy.discretionary
    let needed = rules.requires + rules.largeTransferRequires
    let network = sim.links.network
    if needed.contains(.wifi) && !(network.isUp && !network.expensive && !network.constrained) {
      sim.run { NetworkChangeRule.apply(NetworkState(interface: .wifi), engine: sim.engine, into: &$0) }
    }
    let power = sim.links.power
    let needsCharging =
      !power.charging && (needed.contains(.charging) || power.battery < rules.minimumBatteryLevel)
    let needsLowPowerOff = rules.avoidLowPowerMode && power.lowPowerMode
    if needsCharging || needsLowPowerOff {
      let next = PowerState(
        charging: power.charging || needsCharging, battery: power.battery,
        lowPowerMode: power.lowPowerMode && !needsLowPowerOff)
      sim.run { PowerChangeRule.apply(next, to: &sim.engine.links, into: &$0) }
    }
  }

  /// Why the system ends the app's process.
  public enum TerminationReason: String, Sendable {
    /// Memory pressure: background transfers go on (`app.terminate reason=system`).
    case memoryPressure = "system"
    /// The watchdog: a background task outlived its time (`app.terminate reason=watchdog`).
    case watchdog
  }

  /// The system ends the app's process now, for `reason`; nothing happens when it is not running.
  public func terminateApp(reason: TerminationReason = .memoryPressure) {
    simulation.terminate(reason: reason.rawValue)
  }

  /// The app's background time runs out now: with background tasks open their expiration
  /// handlers run (and the watchdog ends the app if one is still open after them), as when
  /// `backgroundTaskLimit` is used up; with none, a background app is suspended at once.
  /// Nothing happens while the app is not in the background.
  public func expireBackgroundTime() {
    let sim = simulation
    guard sim.lifecycle.state == .background else { return }
    if sim.assertions.hasOpen {
      // The budget ends now: its expiry runs at once (handlers, then the watchdog if one stays open).
      sim.assertions.enteredBackground(at: sim.now, limit: .zero)
      guard let (_, generation) = sim.assertions.expiryToArm(now: sim.now) else { return }
      sim.backgroundTimeExpired(generation: generation)
    }
    if sim.lifecycle.state == .background && !sim.assertions.hasOpen { sim.systemSuspend() }
  }
}
