import SimKernel

/// Names other slices' `Simulation` code still calls, each now a room's entry; `run(_:)`, the
/// helper that lends a rule the effect buffer and interprets it; and the work of the `.vanish`,
/// `.pauseDefaultTransfers` and `.resumePausedDefaultTransfers` effects, which is made of the
/// transfer and completion steps (`withdraw`, `endTask`, `detachTransfer`, `releaseConnection`,
/// `enqueue`) still written as `Simulation` code. Each goes once its callers or parts are rooms.
extension Simulation {
  /// Lets `rule` fill the reused effect buffer, then performs its effects in order; returns what
  /// the rule returns. Effects appended before a rule throws are still performed.
  func run<R, E: Error>(_ rule: (inout EffectBuffer) throws(E) -> R) throws(E) -> R {
    var effects = takeEffectBuffer()
    let result: R
    do {
      result = try rule(&effects)
    } catch {
      interpret(consume effects)
      throw error
    }
    interpret(consume effects)
    return result
  }

  /// The extension `name`'s process ended (`Rules/System/ExtensionEndRule.swift`).
  func extensionEnded(_ name: String, reason: String) {
    run { ExtensionEndRule.ended(name, reason: reason, engine: engine, into: &$0) }
  }

  /// The app's process ended (`Engine.processEnded`); a device restart calls it.
  func processEnded() {
    run { engine.processEnded(into: &$0) }
  }

  /// A default session's task dies with its process: nothing is delivered, nobody is told.
  func vanish(_ task: SimURLSessionTask, reason: String = "appTerminated") {
    let holding = withdraw(task)
    emit(.taskLost, [TraceField("task", .string(task.name)), TraceField("reason", .string(reason))])
    endTask(task, .lost)
    task.session.taskEnded()
    if holding { releaseConnection(of: task, admitting: false) }
  }

  /// Default sessions run in the app's process: their transfers stop while it is suspended,
  /// and fail with -1001 if it stays suspended past the request timeout.
  func pauseDefaultTransfers() {
    for record in daemon.sessionRecords where !record.isBackground {
      for task in record.unfinishedTasks() where task.machine.isActive {
        detachTransfer(task, freeConnection: false)
        releaseConnection(of: task)
        if !task.fetchesBody { uploadStopped(task) }
        let action = task.machine.paused(at: now)
        emit(
          .taskPaused,
          [TraceField("task", .string(task.name)), TraceField("reason", .string("appSuspended"))])
        switch action {
        case .armIdleTimer:
          task.record.idleTimerStarted(
            scheduler.schedule(
              .requestTimeout(uid: task.uid, generation: task.machine.generation),
              after: record.configuration.timeoutIntervalForRequest))
        }
      }
    }
    rescheduleLinks()
  }

  /// The app came to the foreground: default sessions' paused transfers stop their request idle
  /// timer and queue again.
  func resumePausedDefaultTransfers() {
    for record in daemon.sessionRecords where !record.isBackground {
      for task in record.unfinishedTasks() {
        guard case .paused = task.machine.state else { continue }
        switch task.machine.requeue() {
        case .stopIdleTimerAndEnqueue:
          if let handle = task.record.idleTimerStopped() { scheduler.cancel(handle) }
        case .enqueue: break
        }
        enqueue(task)
      }
    }
  }
}
