import SimKernel

/// Rule: the app calls `suspend()` on a task (behavior.md, "Tasks").
///
/// On a resumed task it stops where it is (off its link or queue, its connection freed),
/// produces no traffic and is not subject to timeouts until the app resumes it [A]. A download
/// continues from the bytes it has (a range request, as after a pause); an upload starts its
/// body again unless it can resume. Nested calls only count; on a task not yet resumed or done
/// the call only counts, as in Foundation.
enum SuspendTaskRule {
  /// The call: counted, or (for a task it stops) the task is taken off its link or queue first
  /// (`Engine.withdraw`), then `withdrawn`.
  static func apply(_ task: SimURLSessionTask, engine: Engine, into effects: inout EffectBuffer) {
    guard task.machine.suspendStops else {
      switch engine.tasks[task].machine.suspend(at: engine.now) {
      case .ignore, .count: return
      case .stop: preconditionFailure("internal inconsistency: suspend stopped a task suspendStops kept")
      }
    }
    let withdrawal = engine.withdraw(task)
    withdrawn(task, holding: withdrawal == .holdsConnection, engine: engine, into: &effects)
  }

  /// The task is off its link or queue (`holding`: it held a connection): it stops, its timers
  /// are disarmed, the call is traced with the bytes moved, and its connection goes to the
  /// next waiting task.
  static func withdrawn(
    _ task: SimURLSessionTask, holding: Bool, engine: Engine, into effects: inout EffectBuffer
  ) {
    let moved = task.isDownload ? task.countOfBytesReceived : task.countOfBytesSent
    if task.fetchesBody {
      if !task.isDownload { engine.tasks[task].bytes.discardUploadProgress() }
    } else {
      engine.uploadStopped(task, into: &effects)
    }
    guard engine.tasks[task].machine.suspend(at: engine.now) == .stop else {
      preconditionFailure("internal inconsistency: suspend did not stop a task suspendStops stopped")
    }
    let timers = engine.tasks[task].record.suspendedByApp(at: engine.now)
    if let handle = timers.resource { effects.append(.cancelEvent(handle)) }
    if let handle = timers.request { effects.append(.cancelEvent(handle)) }
    effects.append(
      .trace(
        .taskSuspend,
        [
          TraceField("task", .string(task.name)), TraceField("session", .string(task.session.identifier)),
          TraceField("bytes", .int(moved)),
        ]))
    if holding {
      AdmissionPassRule.releaseConnection(of: task, admitting: true, engine: engine, into: &effects)
    }
    effects.append(.rescheduleLinks)
  }
}
