import SimKernel

/// User and system actions on the app's process (behavior.md, "App lifecycle").
extension Simulation {
  /// The user opens the app: launches it or brings it to the foreground.
  public func launchApp() {
    // Opening the app needs the device unlocked: the first launch after a restart unlocks it.
    if links.lockedSinceRestart { unlockDevice() }
    let outcome = lifecycle.userLaunch()
    switch outcome {
    case .alreadyForeground: return
    case .launched:
      emit(.appLaunch, [TraceField("reason", .string("user"))])
      resetRateLimiterForForeground()
      if let app = appProcess.launch() {
        inAppCallback("didFinishLaunching") {
          app.didFinishLaunching(AppContext(simulation: self), reason: .user)
        }
      }
    case .broughtToForeground:
      emit(.appForeground, [])
      wakes.enteredForeground()
      assertions.enteredForeground()
      resetRateLimiterForForeground()
      runLateTimers()
      if let app = installedApp { app.willEnterForeground(AppContext(simulation: self)) }
      resumePausedDefaultTransfers()
      for record in daemon.sessionRecords where record.appSession != nil {
        scheduler.schedule(.deliver(sessionIndex: record.index), at: now)
        armProgressForSession(record)
      }
    }
    reevaluateAllWaiting()
  }

  /// The user leaves the app: background, then suspended after `backgroundRunTime`.
  public func backgroundApp() {
    guard lifecycle.userBackground() else { return }
    emit(.appBackground, [])
    scheduler.schedule(
      .suspendApp(lifecycleGeneration: lifecycle.generation), after: policy.backgroundRunTime)
    run { engine.startBackgroundTime(into: &$0) }
    if let app = installedApp { app.didEnterBackground(AppContext(simulation: self)) }
    if !deviceModel.backgroundAppRefresh {
      cancelBackgroundTasks(reason: .backgroundUpdatesDisabled)
    }
  }

  /// The system terminates the app (memory pressure): background transfers go on [A].
  public func terminateApp() { terminate(reason: "system") }

  /// The system ends the process (`system`: memory pressure; `watchdog`: an expired background
  /// task was not ended); background transfers go on.
  func terminate(reason: String) {
    guard lifecycle.state != .notRunning else { return }
    _ = lifecycle.terminate(byUser: false)
    emit(.appTerminate, [TraceField("reason", .string(reason))])
    processEnded()
    requestWakeCheck()
  }

  /// The user swipes the app away: background tasks are cancelled with reason
  /// `userForceQuitApplication`, and no background launch happens until the next user launch [A].
  public func forceQuitApp() {
    guard lifecycle.terminate(byUser: true) else { return }
    emit(.appTerminate, [TraceField("reason", .string("forceQuit"))])
    run { engine.dropContinuedProcessing(forceQuit: true, into: &$0) }
    processEnded()
    cancelBackgroundTasks(reason: .userForceQuitApplication)
  }

  /// The system suspends a background app (`Rules/SystemSuspendRule.swift`).
  func systemSuspend() {
    var effects = takeEffectBuffer()
    SystemSuspendRule.apply(
      lifecycle: &lifecycle, continued: &continued, assertions: &assertions, into: &effects)
    interpret(effects)
  }

  /// The process is gone: session objects die, default sessions' tasks vanish with it,
  /// background uploads from data lose their body.
  func processEnded() {
    appProcess.end()
    appBusy.processEnded()
    // Assertions and their handlers go with the process.
    assertions.processEnded()
    assertionHandlers = [:]
    run { engine.dropContinuedProcessing(forceQuit: false, into: &$0) }
    endWake()
    // An extension's sessions are its process's, not the app's: they go on.
    for record in daemon.sessionRecords where !record.heldByExtension {
      record.detachFromApp()
      for task in record.unfinishedTasks() where !task.isFinished {
        if !record.isBackground {
          vanish(task)
        } else if task.needsAppProcess {
          let holding = withdraw(task)
          fail(task, SimURLError(.backgroundSessionWasDisconnected), freeingConnection: holding)
        }
      }
    }
    rescheduleLinks()
  }

  /// A background session's data tasks need the app's process: they fail with -997
  /// (`backgroundSessionWasDisconnected`) when it is suspended [A].
  func disconnectBackgroundDataTasks() {
    for record in daemon.sessionRecords where record.isBackground && !record.heldByExtension {
      for task in record.unfinishedTasks() where task.kind == .data && !task.isFinished {
        let holding = withdraw(task)
        fail(task, SimURLError(.backgroundSessionWasDisconnected), freeingConnection: holding)
      }
    }
    rescheduleLinks()
  }

  /// A default session's task dies with its process: nothing is delivered, nobody is told.
  func vanish(_ task: SimURLSessionTask, reason: String = "appTerminated") {
    let holding = withdraw(task)
    emit(.taskLost, [TraceField("task", .string(task.name)), TraceField("reason", .string(reason))])
    endTask(task, .lost)
    task.session.taskEnded()
    if holding { releaseConnection(of: task, admitting: false) }
  }

  /// Cancels every unfinished background task at one instant; delivered at the next launch. No
  /// task starts in a slot another's cancellation frees: it would be cancelled a moment later.
  func cancelBackgroundTasks(reason: SimURLError.CancelReason) {
    for record in daemon.sessionRecords where record.isBackground {
      for task in record.unfinishedTasks() where !task.isFinished {
        cancelTask(task, produceResumeData: true, reason: reason, admitting: false)
      }
    }
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

  private func resumePausedDefaultTransfers() {
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

  private func resetRateLimiterForForeground() {
    guard policy.rateLimiter.resetOnForeground, rateLimiter.reset(at: now) else { return }
    emit(.rateLimiterReset, [TraceField("reason", .string("foreground"))])
  }

  /// The rate limiter's idle-reset timer (`Rules/RateLimiterIdleRule.swift`).
  func rateLimiterIdleExpired(generation: UInt32) {
    var effects = takeEffectBuffer()
    RateLimiterIdleRule.apply(generation: generation, now: now, to: &rateLimiter, into: &effects)
    interpret(effects)
  }
}
