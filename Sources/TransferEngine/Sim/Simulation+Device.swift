import SimKernel

/// Device and server steps: each is a rule in `Rules/` (network, power, server change, drop
/// fault), fed here with the components it changes; and the helpers the steps share.
extension Simulation {
  /// A new network step: the rule (`Rules/NetworkChangeRule.swift`) re-rates the links and says
  /// which transfers are cut; the effects are carried out in order.
  func applyNetwork(_ next: NetworkState) {
    var effects = takeEffectBuffer()
    NetworkChangeRule.apply(
      next, to: &links, now: now,
      sessions: daemon.sessionRecords.lazy.map {
        NetworkChangeRule.Session(activeTransfers: $0.activeTransfers, configuration: $0.configuration)
      },
      activeTransfers: {
        self.activeTransfers().map {
          NetworkChangeRule.Transfer(
            uid: $0.uid, resumeSequence: $0.resumeSequence, configuration: $0.effectiveConfiguration)
        }
      }, into: &effects)
    interpret(effects)
  }

  /// A power step (`Rules/PowerChangeRule.swift`).
  func applyPower(_ next: PowerState) {
    var effects = takeEffectBuffer()
    PowerChangeRule.apply(next, to: &links, into: &effects)
    interpret(effects)
  }

  /// A server change (`Rules/ServerChangeRule.swift`).
  func applyServerChange(_ change: ServerChange) {
    var effects = takeEffectBuffer()
    ServerChangeRule.apply(change, to: &links, into: &effects)
    interpret(effects)
  }

  /// A `dropConnection` fault begins (`Rules/DropFaultRule.swift`).
  func activateDropFault(_ index: Int) {
    var effects = takeEffectBuffer()
    DropFaultRule.apply(
      fault: index, to: &links,
      activeTransfers: activeTransfers().map { DropFaultRule.Transfer(uid: $0.uid, url: $0.currentURL) },
      into: &effects)
    interpret(effects)
  }

  /// Tasks connecting or moving bytes, in uid order.
  func activeTransfers() -> [SimURLSessionTask] {
    daemon.unfinishedTasks().filter { $0.machine.isActive }
  }

  func interfaceAllowed(for configuration: SessionConfiguration) -> Bool {
    Admission.interfaceBlock(for: configuration, on: links.network) == nil
  }

  /// The conditions admission decides on, now.
  var admissionConditions: Admission.Conditions {
    Admission.Conditions(
      now: now, network: links.network, power: links.power, appState: lifecycle.state,
      rateLimiterExpiry: rateLimiter.expiry, discretionary: policy.discretionary,
      deviceLocked: links.lockedSinceRestart,
      connectionSlack: injectedFault == .connectionLimitOffByOne ? 1 : 0)
  }
}
