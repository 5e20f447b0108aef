import SimKernel

/// Device and server steps: each is applied to `Links`, traced, and followed by what it means
/// for transfers (cuts) and for waiting tasks (re-admission).
extension Simulation {
  /// A new network step: re-rate the links, cut transfers the new network cannot carry, and
  /// re-decide every waiting task.
  func applyNetwork(_ next: NetworkState) {
    let change = links.apply(next, now: now)
    var fields: [TraceField] = [TraceField("interface", .string(next.interface.rawValue))]
    if next.isUp {
      fields += [
        TraceField("down", .string(next.down.description)), TraceField("up", .string(next.up.description)),
        TraceField("latency", .duration(next.latency)), TraceField("expensive", .bool(next.expensive)),
        TraceField("constrained", .bool(next.constrained)),
      ]
    }
    emit(.networkChange, fields)
    let interfaceChanged = change.interfaceChanged
    // Only a session with transfers running that the new network cuts needs the O(tasks) scan;
    // a rate-only step re-rates the links and nothing else.
    let cuts = daemon.sessionRecords.contains { record in
      record.activeTransfers > 0
        && (interfaceChanged || next.constrained || !interfaceAllowed(for: record.configuration))
    }
    var retrying: [SimURLSessionTask] = []
    for task in cuts ? activeTransfers() : [] {
      if interfaceChanged {
        // Not a failure when the new interface is allowed: retry there at once, first.
        let retryNow = next.isUp && interfaceAllowed(for: task.effectiveConfiguration)
        if interrupt(task, reason: next.isUp ? "interfaceChanged" : "networkLost", retryNow: retryNow) {
          retrying.append(task)
        }
      } else if !interfaceAllowed(for: task.effectiveConfiguration) {
        interrupt(task, reason: "interfaceNotAllowed")
      }
    }
    for task in retrying.sorted(by: { $0.resumeSequence < $1.resumeSequence }) { _ = daemon.insert(task) }
    rescheduleLinks()
    reevaluateAllWaiting()
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
