import SimKernel

/// The one place that answers "may this task start now, and if not, why"
/// (behavior.md, "When a task may start").
///
/// Pure: the answer depends only on an immutable snapshot of the conditions and the facts of
/// the task, so it is tested without a `Simulation`. The rate limiter that sets one of the
/// conditions lives beside it (`RateLimiter.swift`).
enum Admission {
  /// What the device, the app and the daemon look like at one instant.
  struct Conditions {
    var now: SimTime
    var network: NetworkState
    var power: PowerState
    var appState: AppState
    /// Before this instant a task created while the app was not in the foreground may not start.
    var rateLimiterExpiry: SimTime
    var discretionary: DiscretionaryPolicy
    /// The device restarted and has not been unlocked since.
    var deviceLocked = false
    /// Connections allowed beyond the limit: 0, except under the `connectionLimitOffByOne` fault.
    var connectionSlack = 0
  }

  /// What admission needs to know about one task.
  struct Request {
    var configuration: SessionConfiguration
    /// No attempt has started yet: the start date, rate limiter and discretionary rules apply.
    var firstStart: Bool
    var earliestBeginDate: SimTime?
    var createdInBackground: Bool
    var isDiscretionary: Bool
    /// The transfer's size as the system judges it (`Engine.discretionarySize`), read only
    /// for a discretionary task's first start.
    var transferSize: Int64 = 0
    /// Connections the task's (session, host) pair holds now, and its limit.
    var running: Int
    var connectionLimit: Int
    /// The task must ask the app `willBeginDelayedRequest` once everything else lets it start.
    var awaitsDelayedAnswer = false
  }

  /// Why the task cannot start now, or nil when it can. Retries skip the conditions that only
  /// gate a first start (start date, rate limiter, discretionary).
  static func waitReason(_ request: Request, in conditions: Conditions) -> SimURLSessionTask.WaitReason? {
    let configuration = request.configuration
    if conditions.deviceLocked { return .deviceLocked }
    if configuration.kind == .background && request.firstStart {
      if let date = request.earliestBeginDate, date > conditions.now { return .earliestBegin }
      if request.createdInBackground && conditions.rateLimiterExpiry > conditions.now { return .rateLimiter }
      if request.isDiscretionary {
        let missing = missingDiscretionaryConditions(conditions, size: request.transferSize)
        if !missing.isEmpty { return .discretionary(missing: missing) }
      }
    }
    if configuration.kind == .default && conditions.appState == .suspended { return .appSuspended }
    if let block = interfaceBlock(for: configuration, on: conditions.network) { return block }
    if request.running >= request.connectionLimit + conditions.connectionSlack { return .connectionLimit }
    // Ready in every other respect: a delayed task whose delegate implements
    // `willBeginDelayedRequest` waits for the app's answer [A].
    if request.awaitsDelayedAnswer && configuration.kind == .background && request.firstStart {
      return .delayedRequest
    }
    return nil
  }

  /// The instant a block for `reason` ends by itself while admission's other inputs stay as they
  /// are (`KnownBlockedRun`): a start date, the rate limiter's expiry; nil for any other.
  static func timedBlockEnd(
    _ reason: SimURLSessionTask.WaitReason, _ request: Request, in conditions: Conditions
  ) -> SimTime? {
    switch reason {
    case .earliestBegin: return request.earliestBeginDate
    case .rateLimiter: return conditions.rateLimiterExpiry
    default: return nil
    }
  }

  /// Whether the network's interface is one the session may use, and if not, why.
  static func interfaceBlock(for configuration: SessionConfiguration, on network: NetworkState)
    -> SimURLSessionTask.WaitReason?
  {
    guard network.isUp else { return .connectivity }
    if network.interface == .cellular && !configuration.allowsCellularAccess { return .cellularNotAllowed }
    if network.expensive && !configuration.allowsExpensiveNetworkAccess { return .expensiveNotAllowed }
    if network.constrained && !configuration.allowsConstrainedNetworkAccess { return .constrainedNotAllowed }
    return nil
  }

  /// The network and the power as a discretionary block reads them: everything
  /// `missingDiscretionaryConditions` looks at, so two conditions with the same view give every
  /// discretionary task the same missing conditions. A change of the network or the power that
  /// leaves the view alone (cellular to none, the battery moving above its floor) cannot lift
  /// such a block (`AdmissionInputGroups.discretionary`).
  struct DiscretionaryView: Equatable {
    /// An interface is up that is neither expensive nor constrained.
    var wifi: Bool
    var charging: Bool
    /// Not charging, and the battery under the policy's floor.
    var batteryLow: Bool
    /// Low Power Mode is on and the policy avoids it.
    var lowPowerModeAvoided: Bool

    init(network: NetworkState, power: PowerState, policy: DiscretionaryPolicy) {
      wifi = network.isUp && !network.expensive && !network.constrained
      charging = power.charging
      batteryLow = !power.charging && power.battery < policy.minimumBatteryLevel
      lowPowerModeAvoided = policy.avoidLowPowerMode && power.lowPowerMode
    }
  }

  /// The discretionary conditions that do not hold for a transfer of `size` bytes, in report
  /// order: `wifi`, `charging`, `batteryLevel`, `lowPowerModeOff` (empty: all hold). Reads the
  /// conditions only through their `DiscretionaryView`.
  static func missingDiscretionaryConditions(_ conditions: Conditions, size: Int64) -> [String] {
    let rules = conditions.discretionary
    let view = DiscretionaryView(network: conditions.network, power: conditions.power, policy: rules)
    var missing: [String] = []
    for condition in rules.conditions(forSize: size) {
      switch condition {
      case .wifi where !view.wifi: missing.append("wifi")
      case .charging where !view.charging: missing.append("charging")
      default: break
      }
    }
    if view.batteryLow { missing.append("batteryLevel") }
    if view.lowPowerModeAvoided { missing.append("lowPowerModeOff") }
    return missing
  }
}
