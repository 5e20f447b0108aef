import SimKernel

/// Rule: a stall fault begins or ends (behavior.md, "Stalled servers and the request idle
/// timeout").
///
/// Of the transfers running now that the fault targets, in uid order, each moving bytes that the
/// server now stalls is stalled (off its link, its idle timer armed for `timeoutIntervalForRequest`),
/// and each stalled one the server sends to again rejoins its link where it left off; then the
/// links are re-armed. A task still connecting is left alone: it stalls as it connects.
enum StallChangeRule {
  /// A transfer holding a connection, as the rule sees it.
  struct Transfer: Equatable {
    var uid: Int32
    var url: SimURL
    /// Nil while connecting; else whether it is stalled now.
    var stalled: Bool?
  }

  /// Stall fault `index` began or ended: appends what follows for the engine's transfers.
  static func apply(fault index: Int, engine: Engine, into effects: inout EffectBuffer) {
    let faults = engine.links.server.faults
    guard faults.indices.contains(index) else { return }
    let transfers = engine.daemon.activeTransfers(matching: faults[index].target).map {
      Transfer(uid: $0.uid, url: $0.currentURL, stalled: $0.machine.direction?.stalled)
    }
    apply(fault: index, server: engine.links.server, now: engine.now, transfers: transfers, into: &effects)
  }

  /// Stall fault `index` of `server` began or ended at `now`; `transfers` are the ones running, in
  /// uid order. Each task is stalled or unstalled by its own effect, carried out before the next
  /// task's: a task that rejoins a link changes the share the next one's progress is timed by.
  static func apply(
    fault index: Int, server: ServerState, now: SimTime, transfers: [Transfer],
    into effects: inout EffectBuffer
  ) {
    guard case .stall(_, _, let target) = server.faults[index] else { return }
    for transfer in transfers where target.matches(transfer.url) {
      guard let wasStalled = transfer.stalled else { continue }
      let stalled = server.isStalled(transfer.url, at: now)
      if stalled && !wasStalled { effects.append(.stall(uid: transfer.uid)) }
      if !stalled && wasStalled { effects.append(.unstall(uid: transfer.uid)) }
    }
    effects.append(.rescheduleLinks)
  }
}

extension Engine {
  /// Takes a transferring task off its link and arms its idle timer (a stall fault, or a
  /// response from a stalled server).
  func stall(_ task: SimURLSessionTask, into effects: inout EffectBuffer) {
    // The machine leaves `direction` as it was (now stalled), which `settleBytes` reads.
    guard case .leaveLink(let up) = tasks[task].machine.stall(at: now) else { return }
    settleBytes(task)
    tasks[task].bytes.flowStalled(remaining: links.remove(task.uid, up: up, now: now))
    effects.append(
      .trace(
        .taskStalled, [TraceField("task", .string(task.name)), TraceField("bytes", .int(bytesMoved(task)))]))
    effects.append(
      .armRequestTimeout(
        uid: task.uid, generation: task.machine.generation,
        after: task.session.configuration.timeoutIntervalForRequest))
  }

  /// The server sends again before the idle timer fired: back on the link where it left off.
  func unstall(_ task: SimURLSessionTask, into effects: inout EffectBuffer) {
    guard case .rejoinLink(let up) = tasks[task].machine.unstall() else { return }
    if let handle = tasks[task].record.idleTimerStopped() { effects.append(.cancelEvent(handle)) }
    effects.append(
      .trace(
        .taskFlowing, [TraceField("task", .string(task.name)), TraceField("bytes", .int(bytesMoved(task)))]))
    let total = up ? task.uploadSize : (task.fetchesBody ? task.bytes.fetchingSize : task.bytes.responseBody)
    let done = up ? task.countOfBytesSent : task.countOfBytesReceived
    links.add(task.uid, up: up, bytes: total - done, now: now)
    tasks[task].bytes.flowJoined(total - done, up: up)
    effects.append(.armProgress(uid: task.uid))
  }
}
