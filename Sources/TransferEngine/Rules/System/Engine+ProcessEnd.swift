import SimKernel

/// What follows when the app's process ends, is suspended or loses its background work, shared
/// by the rooms of the termination, the force quit, leaving the app and the suspension.
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
      for task in record.unfinishedTasks() {
        if !record.isBackground {
          effects.append(.vanish(uid: task.uid, reason: "appTerminated"))
        } else if task.needsAppProcess {
          effects.append(.disconnect(uid: task.uid))
        }
      }
    }
    effects.append(.rescheduleLinks)
  }

  /// The app was suspended: a background session's data tasks need its process and fail with
  /// -997 (`backgroundSessionWasDisconnected`) [A]; an extension's sessions go on.
  func disconnectBackgroundDataTasks(into effects: inout EffectBuffer) {
    for record in daemon.sessionRecords where record.isBackground && !record.heldByExtension {
      for task in record.unfinishedTasks() where task.kind == .data {
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
}
