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
    if let problem = plan.problem { run { MakeResumedTaskRule.rejected(task, problem, into: &$0) } }
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
    if links.lockedSinceRestart { unlockDevice() }
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
        lifecycle: &engine.lifecycle, continued: &engine.continued, assertions: &engine.assertions, into: &$0)
    }
  }

  /// The rate limiter's idle-reset timer (`Rules/RateLimiterIdleRule.swift`).
  func rateLimiterIdleExpired(generation: UInt32) {
    run { RateLimiterIdleRule.apply(generation: generation, now: now, to: &engine.rateLimiter, into: &$0) }
  }
}
