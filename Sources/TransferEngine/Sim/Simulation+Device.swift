import SimKernel

/// Device and server steps: each is applied to `Links`, traced, and followed by what it means
/// for transfers (cuts) and for waiting tasks (re-admission).
extension Simulation {
  /// A new network step: the rule (`Rules/NetworkChange.swift`) re-rates the links and says
  /// which transfers are cut; the effects are carried out in order.
  func applyNetwork(_ next: NetworkState) {
    var effects = takeEffectBuffer()
    NetworkChange.apply(
      next, to: &links, now: now,
      sessions: daemon.sessionRecords.lazy.map {
        NetworkChange.Session(activeTransfers: $0.activeTransfers, configuration: $0.configuration)
      },
      activeTransfers: {
        self.activeTransfers().map {
          NetworkChange.Transfer(
            uid: $0.uid, resumeSequence: $0.resumeSequence, configuration: $0.session.configuration)
        }
      }, into: &effects)
    interpret(effects)
  }

  func applyPower(_ next: PowerState) {
    links.apply(next)
    emit(
      .powerChange,
      [
        TraceField("charging", .bool(next.charging)), TraceField("battery", .double(next.battery)),
        TraceField("lowPowerMode", .bool(next.lowPowerMode)),
      ])
    reevaluateAllWaiting()
  }

  func applyServerChange(_ change: ServerChange) {
    links.apply(change)
    var fields = [TraceField("url", .string(change.url.string))]
    if let etag = change.etag { fields.append(TraceField("etag", .string(etag ?? "none"))) }
    if let size = change.size { fields.append(TraceField("size", .int(size))) }
    if let status = change.status { fields.append(TraceField("status", .int(Int64(status)))) }
    emit(.serverChange, fields)
  }

  /// A `dropConnection` fault begins: cut matching transfers now, later ones as they connect.
  func activateDropFault(_ index: Int) {
    links.activateDrop(index)
    for task in activeTransfers() where links.takeDrop(for: task.currentURL) {
      interrupt(task, reason: "connectionDropped")
    }
    rescheduleLinks()
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
