import SimKernel

/// Properties that must hold after every event; on in tests (`checksInvariants`).
extension Simulation {
  /// Traps with the invariant's name and the time if the engine broke one of its own rules.
  func checkInvariants() {
    precondition(now >= lastEventTime, "invariant timeMonotonic broken: \(now) after \(lastEventTime)")
    lastEventTime = now
    for key in waitQueueOrder {
      let queue = waitQueues[key]!
      let limit = queue.tasks.first.map(connectionLimit) ?? Int.max
      precondition(queue.running >= 0 && queue.running <= max(limit, queue.running > 0 ? limit : 0),
        "invariant connectionLimit broken for \(key) at \(now): \(queue.running) running")
    }
    if !network.isUp {
      precondition(downLink.activeCount == 0 && upLink.activeCount == 0,
        "invariant noTransferWhileOffline broken at \(now)")
    }
    for task in tasks where task.isDownload && task.fetchingSize > 0 {
      precondition(task.countOfBytesReceived <= task.fetchingSize,
        "invariant bytesWithinSize broken for \(task.name) at \(now)")
    }
  }
}
