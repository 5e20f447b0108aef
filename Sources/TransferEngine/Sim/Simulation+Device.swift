import SimKernel

extension Simulation {
  /// A new network step: re-rate the links, cut transfers the new network cannot carry, and
  /// re-decide every waiting task.
  func applyNetwork(_ next: NetworkState) {
    let previous = network
    network = next
    var fields: [TraceField] = [TraceField("interface", .string(next.interface.rawValue))]
    if next.isUp {
      fields += [
        TraceField("down", .string(next.down.description)), TraceField("up", .string(next.up.description)),
        TraceField("latency", .duration(next.latency)), TraceField("expensive", .bool(next.expensive)),
        TraceField("constrained", .bool(next.constrained)),
      ]
    }
    emit("network.change", fields)
    downLink.setCapacity(next.isUp ? next.down.bytesPerSecond : 0, now: now)
    upLink.setCapacity(next.isUp ? next.up.bytesPerSecond : 0, now: now)
    let interfaceChanged = previous.interface != next.interface
    // Only a session with transfers running that the new network cuts needs the O(tasks) scan;
    // a rate-only step re-rates the links and nothing else.
    let cuts = sessionRecords.contains { record in
      record.activeTransfers > 0 && (interfaceChanged || !interfaceAllowed(for: record.configuration))
    }
    for task in cuts ? activeTransfers() : [] {
      if interfaceChanged {
        interrupt(task, reason: next.isUp ? "interfaceChanged" : "networkLost")
      } else if !interfaceAllowed(for: task.session.configuration) {
        interrupt(task, reason: "interfaceNotAllowed")
      }
    }
    rescheduleLinks()
    reevaluateAllWaiting()
  }

  func applyPower(_ next: PowerState) {
    power = next
    emit(
      "power.change",
      [
        TraceField("charging", .bool(next.charging)), TraceField("battery", .double(next.battery)),
        TraceField("lowPowerMode", .bool(next.lowPowerMode)),
      ])
    reevaluateAllWaiting()
  }

  func applyServerChange(_ change: ServerChange) {
    server.apply(change)
    var fields = [TraceField("url", .string(change.url.string))]
    if let etag = change.etag { fields.append(TraceField("etag", .string(etag ?? "none"))) }
    if let size = change.size { fields.append(TraceField("size", .int(size))) }
    if let status = change.status { fields.append(TraceField("status", .int(Int64(status)))) }
    emit("server.change", fields)
  }

  /// A `dropConnection` fault begins: cut matching transfers now, later ones as they connect.
  func activateDropFault(_ index: Int) {
    server.activateDrop(index)
    for task in activeTransfers() where server.takeDrop(for: task.currentURL) {
      interrupt(task, reason: "connectionDropped")
    }
    rescheduleLinks()
  }

  /// Tasks connecting or moving bytes, in uid order.
  func activeTransfers() -> [SimURLSessionTask] {
    tasks.filter { task in
      switch task.phase {
      case .connecting, .transferring: return true
      default: return false
      }
    }
  }

  /// Whether the current interface is one the session may use, and if not, why.
  func interfaceBlock(for configuration: SessionConfiguration) -> SimURLSessionTask.WaitReason? {
    guard network.isUp else { return .connectivity }
    if network.interface == .cellular && !configuration.allowsCellularAccess { return .cellularNotAllowed }
    if network.expensive && !configuration.allowsExpensiveNetworkAccess { return .expensiveNotAllowed }
    if network.constrained && !configuration.allowsConstrainedNetworkAccess { return .constrainedNotAllowed }
    return nil
  }

  func interfaceAllowed(for configuration: SessionConfiguration) -> Bool {
    interfaceBlock(for: configuration) == nil
  }

  /// The discretionary conditions that do not hold now, in policy order (empty: all hold).
  func missingDiscretionaryConditions() -> [String] {
    var missing: [String] = []
    for condition in policy.discretionary.requires {
      switch condition {
      case .wifi where !(network.isUp && !network.expensive && !network.constrained): missing.append("wifi")
      case .charging where !power.charging: missing.append("charging")
      default: break
      }
    }
    if policy.discretionary.avoidLowPowerMode && power.lowPowerMode { missing.append("lowPowerModeOff") }
    return missing
  }
}
