import SimKernel

/// Starting, expiring and ending `BGContinuedProcessingTask`s (behavior.md, "Continued
/// processing"), shared by the rooms of the app's requests, the user's cancel and the stall check.
extension Engine {
  /// The system starts the task: its stall window begins and its launch handler runs.
  func startContinued(_ entry: ContinuedProcessingTasks.Entry, into effects: inout EffectBuffer) {
    let generation = continued.addRunning(entry, now: now)
    effects.append(.trace(.continuedStart, [TraceField("identifier", .string(entry.identifier))]))
    effects.append(
      .schedule(
        .continuedStallCheck(generation: generation), at: now + policy.continuedProcessing.progressWindow))
    effects.append(.callApp(.continuedLaunch(identifier: entry.identifier)))
  }

  /// The system expires the running task `identifier` (`reason` as traced: `noProgress`,
  /// `user`): its expiration handler runs, and the task then ends whatever the app did.
  func expireContinued(
    _ identifier: String, reason: String, ending: ContinuedProcessingEnd, into effects: inout EffectBuffer
  ) {
    guard continued.markEnding(identifier, ending), let entry = continued.entry(identifier) else { return }
    effects.append(
      .trace(
        .continuedExpire,
        [TraceField("identifier", .string(identifier)), TraceField("reason", .string(reason))]))
    guard entry.expiration != nil else {
      continuedExpirationReturned(identifier, ending: ending, into: &effects)
      return
    }
    effects.append(.callApp(.continuedExpiration(identifier: identifier)))
    effects.append(.afterApp(.continuedExpired(identifier, ending)))
  }

  /// The expiration handler of `identifier` returned (or there was none): a task it did not
  /// complete is linted and ends now.
  func continuedExpirationReturned(
    _ identifier: String, ending: ContinuedProcessingEnd, into effects: inout EffectBuffer
  ) {
    guard let left = continued.removeRunning(identifier) else { return }
    effects.append(
      .lint(
        .continuedTaskNeverCompleted,
        "the expiration handler of continued-processing task '\(identifier)' returned without "
          + "setTaskCompleted; call setTaskCompleted(success: false) in it", []))
    endContinued(left, ending, into: &effects)
  }

  /// The task ended with `end`: while the app runs, queued requests start in the room it left
  /// (one at a time, each after its launch handler returned), then a suspension the task held
  /// happens.
  func endContinued(
    _ entry: ContinuedProcessingTasks.Entry, _ end: ContinuedProcessingEnd, into effects: inout EffectBuffer
  ) {
    effects.append(
      .trace(
        .continuedEnd,
        [TraceField("identifier", .string(entry.identifier)), TraceField("result", .string(end.rawValue))]))
    guard lifecycle.state.isRunning else { return }
    startNextContinued(into: &effects)
  }

  /// Starts the next queued request if there is room (and comes back after its launch
  /// handler); with none left to start, suspends the app if a suspension waited for the tasks.
  func startNextContinued(into effects: inout EffectBuffer) {
    if let next = continued.nextToStart(limit: policy.continuedProcessing.maxRunning) {
      startContinued(next, into: &effects)
      effects.append(.afterApp(.continuedStarted))
      return
    }
    if continued.running.isEmpty && continued.suspensionDeferred {
      continued.suspensionDeferred = false
      effects.append(.systemSuspend)
    }
  }

  /// The app's process ended: running tasks end with it, queued requests are dropped; after a
  /// force quit both are `cancelledByAppSwitcher` [A].
  func dropContinuedProcessing(forceQuit: Bool, into effects: inout EffectBuffer) {
    let (running, queued) = continued.removeAll()
    let end: ContinuedProcessingEnd = forceQuit ? .cancelledByAppSwitcher : .processEnded
    for entry in running + queued {
      effects.append(
        .trace(
          .continuedEnd,
          [TraceField("identifier", .string(entry.identifier)), TraceField("result", .string(end.rawValue))]))
    }
  }
}
