import SimKernel

/// Stalled servers and the request idle timeout (`timeoutIntervalForRequest`) [A]: a transfer
/// that moves no byte for that long times out; a background session retries it, a default
/// session fails it with -1001.
extension Simulation {
  /// A stall fault began or ended: stall transfers that are now stalled, restart the others.
  func applyStalls(fault index: Int) {
    guard case .stall(_, _, let target) = links.server.faults[index] else { return }
    for task in daemon.activeTransfers() where target.matches(task.currentURL) {
      guard let direction = task.machine.direction else { continue }
      let stalled = links.server.isStalled(task.currentURL, at: now)
      if stalled && !direction.stalled { stall(task) }
      if !stalled && direction.stalled { unstall(task) }
    }
    rescheduleLinks()
  }

  /// Takes a transferring task off its link and starts its idle timer.
  func stall(_ task: SimURLSessionTask) {
    // The machine leaves `direction` as it was (now stalled), which `settleBytes` reads.
    guard case .leaveLink(let up) = task.machine.stall(at: now) else { return }
    settleBytes(task)
    task.bytes.flowStalled(remaining: links.remove(task.uid, up: up, now: now))
    emit(.taskStalled, [TraceField("task", .string(task.name)), TraceField("bytes", .int(bytesMoved(task)))])
    task.record.idleTimerStarted(
      scheduler.schedule(
        .requestTimeout(uid: task.uid, generation: task.machine.generation),
        after: task.session.configuration.timeoutIntervalForRequest))
  }

  /// The server sends again before the idle timer fired: back on the link where it left off.
  func unstall(_ task: SimURLSessionTask) {
    guard case .rejoinLink(let up) = task.machine.unstall() else { return }
    if let handle = task.record.idleTimerStopped() { scheduler.cancel(handle) }
    emit(.taskFlowing, [TraceField("task", .string(task.name)), TraceField("bytes", .int(bytesMoved(task)))])
    let total = up ? task.uploadSize : (task.fetchesBody ? task.bytes.fetchingSize : task.bytes.responseBody)
    let done = up ? task.countOfBytesSent : task.countOfBytesReceived
    links.add(task.uid, up: up, bytes: total - done, now: now)
    task.bytes.flowJoined(total - done, up: up)
    armProgress(task)
  }

  /// Bytes of the body moved so far, in the direction the task is in.
  func bytesMoved(_ task: SimURLSessionTask) -> Int64 {
    if task.machine.direction?.up == true { return task.countOfBytesSent }
    return task.fetchesBody ? task.countOfBytesReceived : task.countOfBytesSent
  }

  /// The request idle timer fired for a stalled transfer.
  func stalledRequestTimedOut(_ task: SimURLSessionTask) {
    if task.session.configuration.kind == .background {
      interrupt(task, reason: "requestTimeout")
    } else {
      detachTransfer(task, freeConnection: false)
      fail(task, SimURLError(.timedOut, resume: makeResumeData(task)), freeingConnection: true)
    }
    rescheduleLinks()
  }
}
