import SimKernel

/// Default sessions run in the app's process (behavior.md, "App lifecycle"): their transfers
/// pause while it is suspended and queue again when it comes to the foreground. Shared by the
/// rooms of the suspension (`SystemSuspendRule`, through `.pauseDefaultTransfers`) and of the
/// return to the foreground (`LaunchAppRule`, through `.resumePausedDefaultTransfers`).
extension Engine {
  /// The app was suspended: each running transfer of a default session leaves its link, frees
  /// its connection (a waiting task of its queue may not start while the app is suspended, but
  /// its reason is traced), is traced `task.paused`, and arms its request idle timer: a transfer
  /// still paused past `timeoutIntervalForRequest` fails with -1001. The links are re-armed.
  func pauseDefaultTransfers(into effects: inout EffectBuffer) {
    for record in daemon.sessionRecords where !record.isBackground {
      for task in record.unfinishedTasks() where task.machine.isActive {
        detach(task)
        AdmissionPassRule.releaseConnection(of: task, admitting: true, engine: self, into: &effects)
        if !task.fetchesBody { uploadStopped(task, into: &effects) }
        let action = task.machine.paused(at: now)
        effects.append(
          .trace(
            .taskPaused,
            [TraceField("task", .string(task.name)), TraceField("reason", .string("appSuspended"))]))
        switch action {
        case .armIdleTimer:
          effects.append(
            .armRequestTimeout(
              uid: task.uid, generation: task.machine.generation,
              after: record.configuration.timeoutIntervalForRequest))
        }
      }
    }
    effects.append(.rescheduleLinks)
  }

  /// The app came to the foreground: each paused transfer of a default session stops its
  /// request idle timer and is queued again, in creation order.
  func resumePausedDefaultTransfers(into effects: inout EffectBuffer) {
    for record in daemon.sessionRecords where !record.isBackground {
      for task in record.unfinishedTasks() {
        guard case .paused = task.machine.state else { continue }
        switch task.machine.requeue() {
        case .stopIdleTimerAndEnqueue:
          if let handle = task.record.idleTimerStopped() { scheduler.cancel(handle) }
        case .enqueue: break
        }
        AdmissionPassRule.enqueue(task, engine: self, into: &effects)
      }
    }
  }
}
