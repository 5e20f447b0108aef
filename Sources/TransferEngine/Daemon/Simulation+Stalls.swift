import SimKernel

/// Stalled servers and the request idle timeout (`timeoutIntervalForRequest`) [A]: a transfer
/// that moves no byte for that long times out; a background session retries it, a default
/// session fails it with -1001.
extension Simulation {
  /// A stall fault began or ended: stall transfers that are now stalled, restart the others.
  func applyStalls(fault index: Int) {
    guard case .stall(_, _, let target) = server.faults[index] else { return }
    for task in activeTransfers() where target.matches(task.currentURL) {
      if case .transferring = task.phase {
        let stalled = server.isStalled(task.currentURL, at: now)
        if stalled && task.stalledSince == nil { stall(task) }
        if !stalled && task.stalledSince != nil { unstall(task) }
      }
    }
    rescheduleLinks()
  }

  /// Takes a transferring task off its link and starts its idle timer.
  func stall(_ task: SimURLSessionTask) {
    guard case .transferring(let up) = task.phase, task.stalledSince == nil else { return }
    settleBytes(task)
    let remaining = up ? upLink.remove(task.uid, now: now) : downLink.remove(task.uid, now: now)
    task.bytesOnWire += task.flowBytes - Int64(remaining.rounded(.up))
    task.flowBytes = 0
    task.stalledSince = now
    emit(
      "task.stalled", [TraceField("task", .string(task.name)), TraceField("bytes", .int(bytesMoved(task)))])
    task.requestTimeoutHandle = scheduler.schedule(
      .requestTimeout(uid: task.uid, generation: task.generation),
      after: task.session.configuration.timeoutIntervalForRequest)
  }

  /// The server sends again before the idle timer fired: back on the link where it left off.
  func unstall(_ task: SimURLSessionTask) {
    guard case .transferring(let up) = task.phase, task.stalledSince != nil else { return }
    task.stalledSince = nil
    if let handle = task.requestTimeoutHandle { scheduler.cancel(handle) }
    task.requestTimeoutHandle = nil
    emit(
      "task.flowing", [TraceField("task", .string(task.name)), TraceField("bytes", .int(bytesMoved(task)))])
    let total = up ? task.uploadSize : (task.isDownload ? task.fetchingSize : task.responseBodyBytes)
    let done = up ? task.countOfBytesSent : task.countOfBytesReceived
    if up {
      upLink.add(task.uid, bytes: total - done, now: now)
    } else {
      downLink.add(task.uid, bytes: total - done, now: now)
    }
    task.flowBytes = total - done
    armProgress(task)
  }

  /// Bytes of the body moved so far, in the direction the task is in.
  func bytesMoved(_ task: SimURLSessionTask) -> Int64 {
    if case .transferring(true) = task.phase { return task.countOfBytesSent }
    return task.isDownload ? task.countOfBytesReceived : task.countOfBytesSent
  }

  /// The request idle timer fired for a stalled transfer.
  func stalledRequestTimedOut(_ task: SimURLSessionTask) {
    if task.session.configuration.kind == .background {
      interrupt(task, reason: "requestTimeout")
    } else {
      detachTransfer(task, freeConnection: false)
      fail(task, SimURLError(.timedOut, resumeData: makeResumeData(task)), freeingConnection: true)
    }
    rescheduleLinks()
  }
}
