import SimKernel

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The entries of the user's and the app's requests, and of the system events that belong to
/// them: each runs its room (`Rules/UserActions/`, `Rules/AppRequests/`, `Rules/System/`) on the
/// engine and interprets what it appended. Nothing here decides.
extension Simulation {
  /// The user opens the app's extension `name` (a share sheet, say): its process starts. The
  /// extension makes sessions with `makeSession(inExtension:configuration:delegate:)`.
  public func openExtension(_ name: String) {
    run { OpenExtensionRule.apply(name, engine: engine, into: &$0) }
  }

  /// The user leaves the extension: the system ends its process `extensionEndsAfter` later.
  public func closeExtension(_ name: String) {
    run { CloseExtensionRule.apply(name, engine: engine, into: &$0) }
  }

  /// Whether the extension `name` is running now.
  public func extensionIsRunning(_ name: String) -> Bool { extensions.isRunning(name) }

  /// The system ends the extension's run `run` (`Rules/System/ExtensionEndRule.swift`).
  func endExtension(run: Int) {
    self.run { ExtensionEndRule.apply(run: run, engine: engine, into: &$0) }
  }

  /// `URLSession(configuration:delegate:delegateQueue:)` called in the extension `name`, which
  /// must be running. Only background sessions are modelled in an extension.
  public func makeSession(
    inExtension name: String, configuration: SessionConfiguration, delegate: SimURLSessionDelegate?
  ) throws(SimAPIMisuse) -> SimURLSession {
    try makeSession(configuration, delegate: delegate, owner: .appExtension(name))
  }

  /// `URLSession(configuration:delegate:delegateQueue:)`, called by the app through `AppContext`
  /// (`owner` `.app`) or by an extension (`makeSession(inExtension:...)`)
  /// (`Rules/AppRequests/MakeSessionRule.swift`).
  func makeSession(
    _ configuration: SessionConfiguration, delegate: SimURLSessionDelegate?, owner: SessionOwner = .app
  ) throws(SimAPIMisuse) -> SimURLSession {
    try run { (effects: inout EffectBuffer) throws(SimAPIMisuse) in
      try MakeSessionRule.apply(
        configuration, delegate: delegate, owner: owner, simulation: self, engine: engine, into: &effects)
    }
  }

  /// `downloadTask`, `dataTask`, `uploadTask` (`Rules/AppRequests/MakeTaskRule.swift`); the run's
  /// budget, which the interpreter keeps, is checked after the process may make a task.
  func makeTask(
    in session: SimURLSession, kind: SimURLSessionTask.Kind, url text: String, name: String?,
    resumeData: ResumeDataContents?, method: String = "GET"
  ) throws(SimAPIMisuse) -> SimURLSessionTask {
    if let refusal = MakeTaskRule.refusal(in: session, engine: engine) { throw refusal }
    guard !budgetCheckpoint() else {
      throw SimAPIMisuse("the run used up its budget (\(budgetExceeded!.limit.rawValue)); no more tasks")
    }
    return try run { (effects: inout EffectBuffer) throws(SimAPIMisuse) in
      try MakeTaskRule.apply(
        in: session, kind: kind, url: text, name: name, resumeData: resumeData, method: method,
        engine: engine,
        into: &effects)
    }
  }

  /// `cancel()` and `cancel(byProducingResumeData:)` (`Rules/Ending/CancelTaskRule.swift`): the
  /// resume data made, if asked for and the task can resume.
  @discardableResult
  func cancelTask(_ task: SimURLSessionTask, produceResumeData: Bool) -> ResumeDataContents? {
    run {
      CancelTaskRule.apply(
        task, produceResumeData: produceResumeData, reason: nil, admitting: true, engine: engine, into: &$0)
    }
  }

  /// `downloadTask(withResumeData:)` and (`upload`) `uploadTask(withResumeData:)`
  /// (`Rules/AppRequests/MakeResumedTaskRule.swift`).
  func makeResumedTask(in session: SimURLSession, data: Data, name: String?, upload: Bool = false)
    throws(SimAPIMisuse) -> SimURLSessionTask
  {
    let plan = MakeResumedTaskRule.plan(data, upload: upload, engine: engine)
    let task = try makeTask(
      in: session, kind: plan.kind, url: plan.url, name: name, resumeData: plan.contents)
    if let problem = plan.problem {
      run { MakeResumedTaskRule.rejected(task, problem, engine: engine, into: &$0) }
    }
    return task
  }

  /// `resume()` on a task (`Rules/AppRequests/ResumeTaskRule.swift`).
  func resume(_ task: SimURLSessionTask) {
    run { ResumeTaskRule.apply(task, engine: engine, into: &$0) }
  }

  /// `suspend()` on a task (`Rules/AppRequests/SuspendTaskRule.swift`).
  func suspend(_ task: SimURLSessionTask) {
    run { SuspendTaskRule.apply(task, engine: engine, into: &$0) }
  }

  /// `finishTasksAndInvalidate()` and `invalidateAndCancel()`
  /// (`Rules/AppRequests/InvalidateSessionRule.swift`): the session is invalidated once the
  /// cancellations the rule asked for are done.
  func invalidate(_ session: SimURLSession, cancelTasks: Bool) {
    guard run({ InvalidateSessionRule.apply(session, cancelTasks: cancelTasks, engine: engine, into: &$0) })
    else { return }
    run { InvalidateSessionRule.tasksCancelled(session, engine: engine, into: &$0) }
  }

  /// The assertions open now, by name, in the order they were begun.
  public var openBackgroundTasks: [String] { assertions.open.map(\.name) }

  /// `beginBackgroundTask` (`Rules/AppRequests/BeginBackgroundTaskRule.swift`); the expiration
  /// handler is kept with the app's closures.
  func beginBackgroundTask(name: String, expirationHandler: @escaping (AppContext) -> Void)
    -> BackgroundTaskIdentifier
  {
    run { effects in
      guard let identifier = BeginBackgroundTaskRule.apply(name: name, engine: engine, into: &effects) else {
        return .invalid
      }
      assertionHandlers[identifier] = expirationHandler
      return BackgroundTaskIdentifier(rawValue: identifier)
    }
  }

  /// `endBackgroundTask` (`Rules/AppRequests/EndBackgroundTaskRule.swift`).
  func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
    run { effects in
      if let ended = EndBackgroundTaskRule.apply(identifier.rawValue, engine: engine, into: &effects) {
        assertionHandlers[ended] = nil
      }
    }
  }

  /// The assertions' time is up (`Rules/System/BackgroundTimeExpiredRule.swift`).
  func backgroundTimeExpired(generation: UInt32) {
    run { BackgroundTimeExpiredRule.apply(generation: generation, engine: engine, into: &$0) }
  }

  /// The identifiers of the continued-processing tasks running now, in the order they started.
  public var runningContinuedProcessing: [String] { continued.running.map(\.identifier) }
  /// The identifiers of the queued requests, first to run first.
  public var queuedContinuedProcessing: [String] { continued.queued.map(\.identifier) }

  /// The progress the running task `identifier` last reported, or nil when it is not running.
  public func continuedProgress(_ identifier: String) -> (completed: Int64, total: Int64)? {
    continued.entry(identifier).map { ($0.completed, $0.total) }
  }

  /// `BGTaskScheduler.submit` (`Rules/AppRequests/SubmitContinuedProcessingRule.swift`).
  func submitContinuedProcessing(
    identifier: String, title: String, subtitle: String, strategy: ContinuedProcessingStrategy,
    launch: @escaping (AppContext, String) -> Void
  ) -> ContinuedProcessingSubmission {
    let entry = ContinuedProcessingTasks.Entry(
      identifier: identifier, title: title, subtitle: subtitle, launch: launch)
    return run { SubmitContinuedProcessingRule.apply(entry, strategy: strategy, engine: engine, into: &$0) }
  }

  /// The task's progress (`Rules/AppRequests/ReportContinuedProgressRule.swift`).
  func reportContinuedProgress(_ identifier: String, completed: Int64, total: Int64) {
    run {
      ReportContinuedProgressRule.apply(
        identifier, completed: completed, total: total, engine: engine, into: &$0)
    }
  }

  /// `setTaskCompleted` (`Rules/AppRequests/CompleteContinuedProcessingRule.swift`).
  func completeContinuedProcessing(_ identifier: String, success: Bool) {
    run { CompleteContinuedProcessingRule.apply(identifier, success: success, engine: engine, into: &$0) }
  }

  /// The user stops the task from the system's progress UI; a queued request is removed
  /// (`Rules/UserActions/CancelContinuedProcessingRule.swift`).
  public func cancelContinuedProcessingByUser(_ identifier: String) {
    run { CancelContinuedProcessingRule.apply(identifier, engine: engine, into: &$0) }
  }

  /// A stall check came due (`Rules/System/ContinuedStallCheckRule.swift`).
  func continuedStallCheck(generation: UInt32) {
    run { ContinuedStallCheckRule.apply(generation: generation, engine: engine, into: &$0) }
  }

  /// The user opens the app: launches it or brings it to the foreground; the first launch after
  /// a restart unlocks the device first (`Rules/UserActions/LaunchAppRule.swift`).
  public func launchApp() {
    if links.lockedSinceRestart { run { DeviceUnlockRule.apply(to: &engine.links, into: &$0) } }
    run { LaunchAppRule.apply(engine: engine, into: &$0) }
  }

  /// The user leaves the app: background, then suspended after `backgroundRunTime`
  /// (`Rules/UserActions/BackgroundAppRule.swift`).
  public func backgroundApp() {
    run { BackgroundAppRule.apply(engine: engine, into: &$0) }
  }

  /// The system terminates the app (memory pressure): background transfers go on [A].
  public func terminateApp() { terminate(reason: "system") }

  /// The system ends the process (`Rules/System/TerminateAppRule.swift`).
  func terminate(reason: String) {
    run { TerminateAppRule.apply(reason: reason, engine: engine, into: &$0) }
  }

  /// The user swipes the app away: background tasks are cancelled with reason
  /// `userForceQuitApplication`, and no background launch happens until the next user launch [A]
  /// (`Rules/UserActions/ForceQuitAppRule.swift`).
  public func forceQuitApp() {
    run { ForceQuitAppRule.apply(engine: engine, into: &$0) }
  }

  /// The system suspends a background app (`Rules/SystemSuspendRule.swift`).
  func systemSuspend() {
    run {
      SystemSuspendRule.apply(
        lifecycle: &engine.lifecycle, continued: &engine.continued, assertions: &engine.assertions,
        callbacks: &engine.appBusy, into: &$0)
    }
  }

  /// The rate limiter's idle-reset timer (`Rules/RateLimiterIdleRule.swift`).
  func rateLimiterIdleExpired(generation: UInt32) {
    run { RateLimiterIdleRule.apply(generation: generation, now: now, to: &engine.rateLimiter, into: &$0) }
  }

  /// The app called an upload resume-data API its iOS version lacks (`UploadResumption.unavailableLint`).
  func lintUploadResumeDataUnavailable(_ call: String, task: String) {
    run { $0.append(UploadResumption.unavailableLint(call, task: task, version: deviceModel.iosVersion)) }
  }
}

// MARK: The engine's calls into the app
/// Every call from the engine into the app's code: a process's launch and its lifecycle
/// callbacks, `handleEvents`, expiration and launch handlers (`callApp`, for `Effect.callApp`),
/// and delegate events and progress reports, delivered live while the app runs with the session
/// attached, in the order they happened. Queueing the events and timing the reports is the
/// engine's (`Rules/Delivery/`); each call runs under its callback's name (`inAppCallback`).
extension Simulation {
  /// `taskIsWaitingForConnectivity`, for a default session that waits for connectivity
  /// (`Effect.notifyWaitingForConnectivity`, from the admission pass).
  func notifyWaitingForConnectivity(_ task: SimURLSessionTask) {
    guard let session = task.session.appSession, lifecycle.state.isRunning else { return }
    emit(.delegateTaskIsWaitingForConnectivity, [TraceField("task", .string(task.name))])
    session.delegate?.urlSession(session, taskIsWaitingForConnectivity: task)
  }

  /// Calls the app's code for `call`, under the callback's name (`inAppCallback`).
  func callApp(_ call: AppCall) {
    let context = AppContext(simulation: self)
    switch call {
    case .launch(let reason):
      if let app = appProcess.launch() {
        inAppCallback("didFinishLaunching") { app.didFinishLaunching(context, reason: reason) }
      }
    case .runLateTimers: runLateTimers()
    case .handleEvents(let identifier, let number):
      let handler = BackgroundCompletionHandler(identifier: identifier, wakeNumber: number, simulation: self)
      inAppCallback("handleEventsForBackgroundURLSession") {
        installedApp?.handleEventsForBackgroundURLSession(
          context, identifier: identifier, completionHandler: handler)
      }
    case .assertionExpiration(let identifier):
      if let handler = assertionHandlers[identifier] { handler(context) }
    case .willEnterForeground: installedApp?.willEnterForeground(context)
    case .didEnterBackground: installedApp?.didEnterBackground(context)
    case .continuedLaunch(let identifier):
      if let entry = continued.entry(identifier) {
        inAppCallback("continuedProcessingLaunch") { entry.launch(context, entry.identifier) }
      }
    case .continuedExpiration(let identifier):
      if let handler = continued.entry(identifier)?.expiration {
        inAppCallback("continuedProcessingExpiration") { handler(context) }
      }
    }
  }

  /// Runs an engine-to-app call under its callback's name, so time the app spends in it is
  /// named in the trace and the lint.
  func inAppCallback<R>(_ name: String, task: String? = nil, _ call: () -> R) -> R {
    let outer = appBusy.current
    appBusy.current = AppBusyTime.Callback(name: name, task: task)
    let result = call()
    appBusy.current = outer
    if outer == nil, appBusy.takeSuspensionAfterCallback() { systemSuspend() }
    return result
  }

  /// The size of the file a download is expected to hand the app next if nothing changes: that
  /// of the download whose transfer ends first on the downlink (nil when it is not a download,
  /// or its size is not known yet). The Foundation bridge sizes that file ahead, while the app
  /// runs a call; a guess that turns out wrong only costs the resizing. O(1).
  @_spi(Bridge) public var likelyNextDownloadBytes: Int64? {
    guard let flow = engine.links.nextDownFlowToFinish else { return nil }
    let task = engine.daemon.task(flow)
    guard task.isDownload, task.countOfBytesExpectedToReceive > 0 else { return nil }
    return task.countOfBytesExpectedToReceive
  }

  /// Delivers a session's queued events if the app can take them now; then, during a wake,
  /// `didFinishEvents` once the session has nothing left.
  ///
  /// The queue is taken out before any delegate runs, so app code always sees the daemon's
  /// records consistent; events it causes are queued behind and delivered in the next round,
  /// in the order they happened. Events the app can no longer take (it stopped running, or
  /// dropped the session) go back to the front of the queue.
  func deliverPending(_ record: DaemonSession) {
    guard lifecycle.state.isRunning, let session = record.appSession else { return }
    // The handler came back early: the rest waits for the next wake or launch.
    if wakes.deliveryHeld(record.identifier) { return }
    // The app is still in a slow callback: the rest waits until it is free.
    if deliveryWaitsForApp(record) { return }
    while lifecycle.state.isRunning && record.attached === session {
      let batch = record.takePending()
      if batch.isEmpty { break }
      var delivered = 0
      while delivered < batch.count && lifecycle.state.isRunning && record.attached === session {
        // Reactions to one delivery can start a fan-out within this one event.
        if budgetCheckpoint() { break }
        let event = batch[delivered]
        let callback = event.callback
        inAppCallback(callback.name, task: callback.task) {
          deliver(event, to: session, in: batch, at: delivered)
        }
        delivered += 1
        if appBusy.busy(at: now) != nil { break }
      }
      if delivered < batch.count {
        record.putBack(batch[delivered...])
        _ = deliveryWaitsForApp(record)
        break
      }
      if deliveryWaitsForApp(record) { return }
    }
    guard record.pending.isEmpty, lifecycle.state.isRunning, wakes.eventsDelivered(record.identifier) else {
      return
    }
    emit(.delegateDidFinishEvents, [TraceField("session", .string(record.identifier))])
    inAppCallback("urlSessionDidFinishEvents") {
      session.delegate?.urlSessionDidFinishEvents(forBackgroundURLSession: session)
    }
  }

  /// `event` is `round[index]`; the rest of the round is read only to find the next download.
  private func deliver(
    _ event: DelegateEvent, to session: SimURLSession, in round: [DelegateEvent], at index: Int
  ) {
    let delegate = session.delegate
    switch event {
    case .didResumeAtOffset(let task, let offset, let total):
      emit(
        .delegateDidResumeAtOffset,
        [
          TraceField("task", .string(task.name)), TraceField("offset", .int(offset)),
          TraceField("total", .int(total)),
        ])
      delegate?.urlSession(session, downloadTask: task, didResumeAtOffset: offset, expectedTotalBytes: total)
    case .didWriteData(let task, let bytesWritten, let total):
      emit(
        .delegateDidWriteData,
        [
          TraceField("task", .string(task.name)), TraceField("totalBytesWritten", .int(total)),
          TraceField("totalBytesExpectedToWrite", .int(total)),
        ])
      delegate?.urlSession(
        session, downloadTask: task, didWriteData: bytesWritten, totalBytesWritten: total,
        totalBytesExpectedToWrite: total)
    case .didFinishDownloading(let task):
      var fields = [
        TraceField("task", .string(task.name)), TraceField("bytes", .int(task.countOfBytesReceived)),
      ]
      // The app identifies a download after a relaunch by what it stored in taskDescription (seed 003).
      if let description = task.taskDescription {
        fields.append(TraceField("description", .string(description)))
      }
      // A session with a shared container downloads into it, where app and extension both see it [A].
      let group = task.session.configuration.sharedContainerIdentifier
      if let group { fields.append(TraceField("sharedContainer", .string(group))) }
      emit(.delegateDidFinishDownloading, fields)
      checker.deliveredDownload(task.uid)
      // Scanning up to the next download only: the round's scans add up to its length.
      var next: Int64?
      for later in round[(index + 1)...] {
        if case .didFinishDownloading(let other) = later {
          next = other.countOfBytesReceived
          break
        }
      }
      let file = DownloadedFile(
        task: task, bytes: task.countOfBytesReceived, sharedContainer: group, nextDownloadBytes: next)
      delegate?.urlSession(session, downloadTask: task, didFinishDownloadingTo: file)
      if file.movedTo == nil {
        lint(
          .downloadedFileLost,
          "the file of '\(task.name)' was not moved in didFinishDownloadingTo; the system deletes it when the call "
            + "returns, so move it into the app's container there",
          [TraceField("task", .string(task.name))])
      }
    case .didSendBodyData(let task, let bytesSent, let total):
      delegate?.urlSession(
        session, task: task, didSendBodyData: bytesSent, totalBytesSent: total,
        totalBytesExpectedToSend: total)
    case .didReceiveData(let task, let bytes):
      emit(
        .delegateDidReceiveData, [TraceField("task", .string(task.name)), TraceField("bytes", .int(bytes))])
      delegate?.urlSession(session, dataTask: task, didReceiveData: bytes)
    case .didComplete(let task, let error):
      var fields = [TraceField("task", .string(task.name))]
      if let error {
        fields.append(TraceField("error", .string(error.code.name)))
        fields.append(TraceField("code", .int(Int64(error.code.rawValue))))
        if let reason = error.cancelReason { fields.append(TraceField("reason", .string(reason.name))) }
        if let data = error.resumeContents {
          fields.append(TraceField("resumeDataOffset", .int(data.offset)))
        }
        if let unavailable = error.networkUnavailableReason {
          fields.append(TraceField("networkUnavailableReason", .string(unavailable.name)))
        }
      } else {
        fields.append(TraceField("error", .string("none")))
        if let status = task.statusCode { fields.append(TraceField("status", .int(Int64(status)))) }
      }
      emit(.delegateDidComplete, fields)
      checker.deliveredCompletion(task.uid)
      delegate?.urlSession(session, task: task, didCompleteWithError: error)
    case .didBecomeInvalid(let invalidated):
      invalidated.deliverInvalidation {
        emit(
          .delegateDidBecomeInvalid,
          [TraceField("session", .string(invalidated.identifier)), TraceField("error", .string("none"))])
      }
    case .willBeginDelayedRequest(let task):
      guard DelayedRequestAnsweredRule.asks(task, engine: engine) else { return }
      emit(
        .delegateWillBeginDelayedRequest,
        [TraceField("task", .string(task.name)), TraceField("url", .string(task.currentURL.string))])
      let answer =
        delegate?.urlSession(session, task: task, willBeginDelayedRequestTo: task.currentURL)
        ?? .continueLoading
      run { DelayedRequestAnsweredRule.apply(task, answer, engine: engine, into: &$0) }
    case .willPerformHTTPRedirection(let task, let target, let generation):
      // Asked of the attempt that met the redirect; if it ended meanwhile there is no question.
      guard task.machine.generation == generation, !task.isFinished else { return }
      emit(
        .delegateWillPerformHTTPRedirection,
        [TraceField("task", .string(task.name)), TraceField("to", .string(target.string))])
      let follow = delegate?.urlSession(session, task: task, willPerformHTTPRedirectionTo: target) ?? true
      run {
        RedirectDecidedRule.apply(
          task, to: target, follow: follow, generation: generation, engine: engine, into: &$0)
      }
    case .didReceiveChallenge(let task, let challenge, let generation):
      // Asked of the attempt that met it; if that attempt ended meanwhile there is no question.
      guard ChallengeAnsweredRule.asks(task, generation: generation) else { return }
      emit(.delegateDidReceiveChallenge, [TraceField("task", .string(task.name))] + challenge.traceFields)
      // The session delegate first for a session-level challenge, when it answers, else the task
      // delegate; without a delegate, default handling.
      var answer = SimAuthChallengeDisposition.performDefaultHandling
      if let delegate {
        if challenge.method.isSessionLevel,
          let sessionAnswer = delegate.urlSession(session, didReceive: challenge)
        {
          answer = sessionAnswer
        } else {
          answer = delegate.urlSession(session, task: task, didReceive: challenge)
        }
      }
      run { ChallengeAnsweredRule.apply(task, answer, generation: generation, engine: engine, into: &$0) }
    }
  }

  /// A progress check: report `didWriteData` (traced) or `didSendBodyData` (not traced) if a new
  /// tenth was crossed, then re-arm.
  func reportProgress(_ task: SimURLSessionTask) {
    guard engine.reportedTransfer(task) != nil else { return }
    engine.settleBytes(task)
    guard let (up, size, done) = engine.reportedTransfer(task) else { return }
    let decile = TransferBytes.tenths(done, of: max(1, size))
    if decile > task.bytes.reportedDecile, decile < 10, lifecycle.state.isRunning,
      engine.untilNextReportAllowed(task) == .zero, let session = task.session.appSession
    {
      engine.tasks[task].bytes.reported(decile: decile, at: now)
      let step = engine.tasks[task].bytes.reportedProgress(total: done)
      if up {
        session.delegate?.urlSession(
          session, task: task, didSendBodyData: step, totalBytesSent: done, totalBytesExpectedToSend: size)
      } else {
        emit(
          .delegateDidWriteData,
          [
            TraceField("task", .string(task.name)), TraceField("totalBytesWritten", .int(done)),
            TraceField("totalBytesExpectedToWrite", .int(size)),
          ])
        session.delegate?.urlSession(
          session, downloadTask: task, didWriteData: step, totalBytesWritten: done,
          totalBytesExpectedToWrite: size)
      }
    }
    engine.armProgress(task)
  }

  /// True when the app's main thread is busy now: the delivery is tried again when it is free.
  func deliveryWaitsForApp(_ record: DaemonSession) -> Bool {
    guard let stretch = appBusy.busy(at: now) else { return false }
    scheduler.schedule(.deliver(sessionIndex: record.index), at: stretch.until)
    return true
  }
}
