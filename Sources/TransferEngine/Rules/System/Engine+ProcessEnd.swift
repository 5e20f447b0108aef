import SimKernel

/// What follows when the app's process ends, is suspended or loses its background work, or comes
/// back to the foreground, shared by the rooms of the termination, the force quit, leaving the
/// app, the suspension and the launch. Default sessions run in the app's process: their
/// transfers pause while it is suspended and queue again in the foreground.
extension Engine {
  /// The process is gone: the app object and its closures, its busy time, assertions and
  /// continued-processing tasks go with it; the wake ends; session objects die (an extension's
  /// sessions are its process's, not the app's: they go on), default sessions' tasks vanish, and
  /// background tasks that needed the process (data tasks, uploads from data) fail with -997.
  func processEnded(into effects: inout EffectBuffer) {
    effects.append(.endProcess)
    appBusy.processEnded()
    assertions.processEnded()
    dropContinuedProcessing(forceQuit: false, into: &effects)
    effects.append(.endWake)
    for record in daemon.sessionRecords where !record.heldByExtension {
      effects.append(.detachFromApp(sessionIndex: record.index))
      if record.isBackground {
        for task in record.unfinishedTasksNeedingAppProcess() { effects.append(.disconnect(uid: task.uid)) }
      } else {
        for task in record.unfinishedTasks() {
          effects.append(.vanish(uid: task.uid, reason: "appTerminated"))
        }
      }
    }
    effects.append(.rescheduleLinks)
  }

  /// The app was suspended: a background session's data tasks need its process and fail with
  /// -997 (`backgroundSessionWasDisconnected`) [A]; an extension's sessions go on.
  func disconnectBackgroundDataTasks(into effects: inout EffectBuffer) {
    // Only the records that may hold such tasks (`SessionWorkIndex`), in record order.
    let candidates = daemon.sessionWork.inApp
    candidates.forEach { index in
      let record = daemon.sessionRecords[index]
      guard record.isBackground && !record.heldByExtension else { return }
      for task in record.unfinishedTasksNeedingAppProcess() where task.kind == .data {
        effects.append(.disconnect(uid: task.uid))
      }
    }
    effects.append(.rescheduleLinks)
  }

  /// Cancels every unfinished background task at one instant (`reason` in each error), with
  /// resume data where a download can resume; delivered at the next launch. No task starts in a
  /// slot another's cancellation frees: it would be cancelled a moment later.
  func cancelBackgroundTasks(reason: SimURLError.CancelReason, into effects: inout EffectBuffer) {
    for record in daemon.sessionRecords where record.isBackground {
      for task in record.unfinishedTasks() {
        effects.append(.cancelTask(uid: task.uid, produceResumeData: true, reason: reason, admitting: false))
      }
    }
  }

  /// The app came to the foreground: with `resetOnForeground`, the rate limiter's delay starts
  /// over.
  func resetRateLimiterForForeground(into effects: inout EffectBuffer) {
    guard policy.rateLimiter.resetOnForeground, rateLimiter.reset(at: now) else { return }
    effects.append(.trace(.rateLimiterReset, [TraceField("reason", .string("foreground"))]))
  }

  /// The app was suspended: each running transfer of a default session leaves its link, frees
  /// its connection (a waiting task of its queue may not start while the app is suspended, but
  /// its reason is traced), is traced `task.paused`, and arms its request idle timer: a transfer
  /// still paused past `timeoutIntervalForRequest` fails with -1001. The links are re-armed.
  func pauseDefaultTransfers(into effects: inout EffectBuffer) {
    // Default sessions' records only, in record order (`SessionWorkIndex.defaultSessions`).
    daemon.sessionWork.defaultSessions.forEach { index in
      let record = daemon.sessionRecords[index]
      for task in record.unfinishedTasks() where task.machine.isActive {
        detach(task)
        AdmissionPassRule.releaseConnection(of: task, admitting: true, engine: self, into: &effects)
        if !task.fetchesBody { uploadStopped(task, into: &effects) }
        let action = tasks[task].machine.paused(at: now)
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
    daemon.sessionWork.defaultSessions.forEach { index in
      let record = daemon.sessionRecords[index]
      for task in record.unfinishedTasks() {
        guard case .paused = task.machine.state else { continue }
        switch tasks[task].machine.requeue() {
        case .stopIdleTimerAndEnqueue:
          if let handle = tasks[task].record.idleTimerStopped() { scheduler.cancel(handle) }
        case .enqueue: break
        }
        AdmissionPassRule.enqueue(task, engine: self, into: &effects)
      }
    }
  }
}
