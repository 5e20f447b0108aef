import SimKernel

extension AppContext {
  /// `BGTaskScheduler.shared.submit(_:)` of a `BGContinuedProcessingTaskRequest` (iOS 26): work
  /// the user started that may go on in the background under the system's progress UI. Allowed
  /// only in the foreground; runs at once when there is room, else queues (`.queue`) or is
  /// refused with `immediateRunIneligible` (`.fail`). `launchHandler` runs when the task starts.
  @discardableResult
  public func submitContinuedProcessing(
    identifier: String, title: String, subtitle: String = "", strategy: ContinuedProcessingStrategy = .queue,
    launchHandler: @escaping (AppContext, String) -> Void
  ) -> ContinuedProcessingSubmission {
    simulation.submitContinuedProcessing(
      identifier: identifier, title: title, subtitle: subtitle, strategy: strategy, launch: launchHandler)
  }

  /// The running task's `expirationHandler`: runs when the system expires it (no progress for
  /// `continuedProcessing.progressWindow`) or the user stops it.
  public func setContinuedProcessingExpirationHandler(
    _ identifier: String, _ handler: ((AppContext) -> Void)?
  ) {
    simulation.continued.setExpiration(identifier, handler)
  }

  /// The task's `progress`: `completedUnitCount` and `totalUnitCount`. Only a rising
  /// `completed` counts as progress for the expiry window.
  public func reportContinuedProgress(_ identifier: String, completed: Int64, total: Int64) {
    simulation.reportContinuedProgress(identifier, completed: completed, total: total)
  }

  /// `setTaskCompleted(success:)`: the task ends. A task that is not running is ignored.
  public func completeContinuedProcessing(_ identifier: String, success: Bool) {
    simulation.completeContinuedProcessing(identifier, success: success)
  }
}

/// Carrying out what `ContinuedProcessingTasks` decides (behavior.md, "Continued processing").
extension Simulation {
  /// The identifiers of the continued-processing tasks running now, in the order they started.
  public var runningContinuedProcessing: [String] { continued.running.map(\.identifier) }
  /// The identifiers of the queued requests, first to run first.
  public var queuedContinuedProcessing: [String] { continued.queued.map(\.identifier) }

  func submitContinuedProcessing(
    identifier: String, title: String, subtitle: String, strategy: ContinuedProcessingStrategy,
    launch: @escaping (AppContext, String) -> Void
  ) -> ContinuedProcessingSubmission {
    guard lifecycle.state.isRunning else { return .failed(.unavailable) }
    emit(
      .continuedSubmit,
      [
        TraceField("identifier", .string(identifier)), TraceField("title", .string(title)),
        TraceField("strategy", .string(strategy.rawValue)),
      ])
    let refusal: ContinuedProcessingError?
    if lifecycle.state != .foreground {
      refusal = .notPermitted
    } else if continued.contains(identifier) {
      refusal = .tooManyPendingTaskRequests
    } else if continued.running.count >= policy.continuedProcessing.maxRunning && strategy == .fail {
      refusal = .immediateRunIneligible
    } else {
      refusal = nil
    }
    if let refusal {
      emit(
        .continuedRefused,
        [
          TraceField("identifier", .string(identifier)), TraceField("error", .string(refusal.rawValue)),
          TraceField("code", .int(Int64(refusal.code))),
        ])
      return .failed(refusal)
    }
    let entry = ContinuedProcessingTasks.Entry(
      identifier: identifier, title: title, subtitle: subtitle, launch: launch)
    if continued.running.count >= policy.continuedProcessing.maxRunning {
      continued.addQueued(entry)
      emit(
        .continuedQueued,
        [
          TraceField("identifier", .string(identifier)),
          TraceField("position", .int(Int64(continued.queued.count))),
        ])
      return .queued
    }
    startContinued(entry)
    return .running
  }

  /// The system starts the task: its launch handler runs, its stall window begins.
  private func startContinued(_ entry: ContinuedProcessingTasks.Entry) {
    let generation = continued.addRunning(entry, now: now)
    emit(.continuedStart, [TraceField("identifier", .string(entry.identifier))])
    scheduler.schedule(
      .continuedStallCheck(generation: generation), after: policy.continuedProcessing.progressWindow)
    inAppCallback("continuedProcessingLaunch") {
      entry.launch(AppContext(simulation: self), entry.identifier)
    }
  }

  func reportContinuedProgress(_ identifier: String, completed: Int64, total: Int64) {
    guard continued.report(identifier, completed: completed, total: total, now: now) != nil else { return }
    emit(
      .continuedProgress,
      [
        TraceField("identifier", .string(identifier)), TraceField("completed", .int(completed)),
        TraceField("total", .int(total)),
      ])
  }

  func completeContinuedProcessing(_ identifier: String, success: Bool) {
    guard let entry = continued.removeRunning(identifier) else { return }
    endContinued(entry, entry.ending ?? (success ? .succeeded : .failed))
  }

  /// A stall check came due: progress that did not advance for the window expires the task.
  func continuedStallCheck(generation: UInt32) {
    switch continued.stallCheck(
      generation: generation, now: now, window: policy.continuedProcessing.progressWindow)
    {
    case .stale: return
    case .rearm(let at): scheduler.schedule(.continuedStallCheck(generation: generation), at: at)
    case .expire(let identifier):
      guard let entry = continued.entry(identifier) else { return }
      if entry.total > 0 && entry.completed >= entry.total {
        lint(
          .continuedTaskNeverCompleted,
          "continued-processing task '\(identifier)' reported all \(entry.total) units done but never called "
            + "setTaskCompleted, so the system expired it after \(policy.continuedProcessing.progressWindow); "
            + "call setTaskCompleted(success: true) when the work ends")
      } else {
        lint(
          .continuedTaskExpired,
          "continued-processing task '\(identifier)' reported no progress for "
            + "\(policy.continuedProcessing.progressWindow) (at \(entry.completed) of \(entry.total)), so the "
            + "system expired it; advance progress.completedUnitCount more often (smaller units of work)")
      }
      expireContinued(identifier, reason: "noProgress", ending: .expired)
    }
  }

  /// The user stops the task from the system's progress UI; a queued request is removed.
  public func cancelContinuedProcessingByUser(_ identifier: String) {
    if let entry = continued.removeQueued(identifier) {
      endContinued(entry, .cancelledByUser)
      return
    }
    expireContinued(identifier, reason: "user", ending: .cancelledByUser)
  }

  /// The expiration handler runs; the task then ends whatever the app did.
  private func expireContinued(_ identifier: String, reason: String, ending: ContinuedProcessingEnd) {
    guard continued.markEnding(identifier, ending), let entry = continued.entry(identifier) else { return }
    emit(
      .continuedExpire,
      [TraceField("identifier", .string(identifier)), TraceField("reason", .string(reason))])
    if let handler = entry.expiration {
      inAppCallback("continuedProcessingExpiration") { handler(AppContext(simulation: self)) }
    }
    guard let left = continued.removeRunning(identifier) else { return }
    lint(
      .continuedTaskNeverCompleted,
      "the expiration handler of continued-processing task '\(identifier)' returned without "
        + "setTaskCompleted; call setTaskCompleted(success: false) in it")
    endContinued(left, ending)
  }

  private func endContinued(_ entry: ContinuedProcessingTasks.Entry, _ end: ContinuedProcessingEnd) {
    emit(
      .continuedEnd,
      [TraceField("identifier", .string(entry.identifier)), TraceField("result", .string(end.rawValue))])
    guard lifecycle.state.isRunning else { return }
    while let next = continued.nextToStart(limit: policy.continuedProcessing.maxRunning) {
      startContinued(next)
    }
    if continued.running.isEmpty && continued.suspensionDeferred {
      continued.suspensionDeferred = false
      systemSuspend()
    }
  }

  /// The system wants to suspend the app: false (and the suspension waits for the last task)
  /// while a continued-processing task runs.

  /// The app's process ended: running tasks end with it, queued requests are dropped; after a
  /// force quit both are `cancelledByAppSwitcher` [A].
  func dropContinuedProcessing(forceQuit: Bool) {
    let (running, queued) = continued.removeAll()
    let end: ContinuedProcessingEnd = forceQuit ? .cancelledByAppSwitcher : .processEnded
    for entry in running + queued {
      emit(
        .continuedEnd,
        [TraceField("identifier", .string(entry.identifier)), TraceField("result", .string(end.rawValue))])
    }
  }
}

extension Simulation {
  /// The progress the running task `identifier` last reported, or nil when it is not running.
  public func continuedProgress(_ identifier: String) -> (completed: Int64, total: Int64)? {
    continued.entry(identifier).map { ($0.completed, $0.total) }
  }
}
