import SimKernel

/// A running transfer's byte counts as the links have moved them: shared by the rooms that take a
/// transfer off its link, stall it or report it.
extension Engine {
  /// Brings a running transfer's byte counts up to date from its link. Inlined: a progress
  /// report calls it for each transfer, and called out of line it cost `share 1000` 2% more.
  @inline(__always) func settleBytes(_ task: SimURLSessionTask) {
    guard let direction = task.machine.direction,
      let remaining = links.bytesRemaining(task.uid, up: direction.up, now: now)
    else { return }
    tasks[task].bytes.settle(up: direction.up, remaining: remaining)
  }

  /// Bytes of the body moved so far, in the direction the task is in.
  func bytesMoved(_ task: SimURLSessionTask) -> Int64 {
    if task.machine.direction?.up == true { return task.countOfBytesSent }
    return task.fetchesBody ? task.countOfBytesReceived : task.countOfBytesSent
  }
}
