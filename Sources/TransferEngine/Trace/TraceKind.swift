import SimKernel

/// Every kind of trace event the engine (or a scenario's scripted app) records, with the field
/// keys each may carry: the one vocabulary that expectations, reports, sweeps and the format
/// reference all read, so a kind or a key is spelled in one place.
///
/// `fieldNames` lists every key in the order the engine writes them; keys marked optional in the
/// doc comment of a case appear only when they apply. No key is `t`, `at` or `kind`: those are
/// the envelope of a JSON Lines record, and a field of the same name would shadow it for every
/// reader that keeps the last of duplicate keys (jq, Python's json, pandas).
public enum TraceKind: String, CaseIterable, Hashable, Sendable {
  /// The network changed; `down`, `up`, `latency`, `expensive`, `constrained` only when an
  /// interface is up.
  case networkChange = "network.change"
  /// Power changed: `charging`, `battery` (0 to 1) and `lowPowerMode`.
  case powerChange = "power.change"
  /// A scheduled server change; each of `etag`, `size`, `status` only when the change sets it.
  case serverChange = "server.change"
  /// The device restarts (`reboot`); `unlockAt` is when the user first unlocks it.
  case deviceReboot = "device.reboot"
  /// The first unlock after a restart.
  case deviceUnlock = "device.unlock"
  /// The app made a session (`sessionKind` is `background` or `default`); `process` names the
  /// extension that made it (absent for the app), `sharedContainer` its app group.
  case sessionCreated = "session.created"
  /// The app asked for a session's tasks (`getAllTasks`); `tasks` names those it got.
  case sessionAllTasks = "session.allTasks"
  /// The app invalidated a session; `cancelTasks` says whether its tasks were cancelled too.
  case sessionInvalidated = "session.invalidated"
  /// `discretionary` only for a discretionary task of a background session.
  case taskCreated = "task.created"
  /// The app called `resume()` on a task.
  case taskResume = "task.resume"
  /// The app's `suspend()` stopped a resumed task; `bytes` it had moved (received, or sent for
  /// an upload). The next `task.resume` continues it.
  case taskSuspend = "task.suspend"
  /// The task was made from resume data the simulation cannot use (`problem` is a
  /// `ResumeDataError` name); it fails with `cannotWriteToFile` when resumed.
  case taskResumeDataRejected = "task.resumeDataRejected"
  /// Why a resumed task is not moving bytes (`reason` is a `WaitReason.Kind`); `until` for
  /// `earliestBegin` and `rateLimiter`, `missing` for `discretionary`.
  case taskDeferred = "task.deferred"
  /// A task connected and began moving bytes (each start after a wait or a retry).
  case taskStarted = "task.started"
  /// A task's automatic retry after an interruption: its `attempt` and the byte `offset` it continues from.
  case taskRetry = "task.retry"
  /// The server redirected a task `from` one URL `to` another.
  case taskRedirect = "task.redirect"
  /// The server asked for a credential (a 401 with a protection space): `level` is `task` or
  /// `session`, `method` an `AuthenticationMethod`.
  case taskChallenged = "task.challenged"
  /// The app answered a challenge (`disposition` is a `URLSession.AuthChallengeDisposition`
  /// name); `user` only with `useCredential`.
  case taskChallengeAnswered = "task.challengeAnswered"
  /// The server accepted the credential the app sent.
  case taskAuthenticated = "task.authenticated"
  /// No answer came within `challenge.answerTimeout`; the task fails with `timedOut`.
  case taskChallengeTimedOut = "task.challengeTimedOut"
  /// A transfer started over from byte 0 (`reason`: `resourceChanged` for resume data whose resource
  /// changed, `uploadNotResumable` for an upload the server cannot continue, `uploadDraftMismatch` for one
  /// to a server on an older draft than the device).
  case taskRestartedFromZero = "task.restartedFromZero"
  /// A stall fault stopped a transfer's bytes; `bytes` it had moved so far.
  case taskStalled = "task.stalled"
  /// A stalled transfer's bytes move again.
  case taskFlowing = "task.flowing"
  /// The network dropped or changed under a running transfer; it waits for a retry.
  case taskInterrupted = "task.interrupted"
  /// A default session's transfer paused because its app was suspended (`reason`).
  case taskPaused = "task.paused"
  /// The daemon has the whole response (`status`, `bytes`); delivery to the app comes later.
  case taskFinished = "task.finished"
  /// `resumeDataOffset` only when the error carries resume data.
  case taskFailed = "task.failed"
  /// `reason` only for a system cancellation; `resumeDataOffset` only with resume data.
  case taskCancelled = "task.cancelled"
  /// A task that vanished without a delegate call, such as a default session's task when its
  /// process ended (`reason`).
  case taskLost = "task.lost"
  /// The app's `willBeginDelayedRequest` answer (`disposition` is a
  /// `URLSession.DelayedRequestDisposition` name); `url` only for `useNewRequest`.
  case taskDelayedRequestAnswered = "task.delayedRequestAnswered"
  /// `urlSession(_:taskIsWaitingForConnectivity:)` was called.
  case delegateTaskIsWaitingForConnectivity = "delegate.taskIsWaitingForConnectivity"
  /// A default session's delegate was asked whether to follow a redirect `to` a URL.
  case delegateWillPerformHTTPRedirection = "delegate.willPerformHTTPRedirection"
  /// A background task with an `earliestBeginDate` is ready; its delegate is asked (`url`: the
  /// request's).
  case delegateWillBeginDelayedRequest = "delegate.willBeginDelayedRequest"
  /// `urlSession(_:task:didReceive:completionHandler:)`, or the session delegate's method for a
  /// session-level challenge.
  case delegateDidReceiveChallenge = "delegate.didReceiveChallenge"
  /// `didResumeAtOffset`: a download resumed from resume data at `offset` of `total` bytes.
  case delegateDidResumeAtOffset = "delegate.didResumeAtOffset"
  /// Download progress delivered to the app (`didWriteData`), at most once per tenth of the body.
  case delegateDidWriteData = "delegate.didWriteData"
  /// `description` only when the task has a `taskDescription`.
  case delegateDidFinishDownloading = "delegate.didFinishDownloading"
  /// A data task's body (or an upload's response body) delivered to the app.
  case delegateDidReceiveData = "delegate.didReceiveData"
  /// `error` is `none` on success; then `status`. On error `code`, and `reason`,
  /// `resumeDataOffset` when they apply.
  case delegateDidComplete = "delegate.didComplete"
  /// `urlSessionDidFinishEvents(forBackgroundURLSession:)`: the woken session's queued events are all delivered.
  case delegateDidFinishEvents = "delegate.didFinishEvents"
  /// `didBecomeInvalidWithError` after the app's own invalidation: `error` is always `none`
  /// (nil), as Apple documents for an explicit invalidation.
  case delegateDidBecomeInvalid = "delegate.didBecomeInvalid"
  /// `handleEventsForBackgroundURLSession`: the system hands the app a session's events and a completion handler.
  case delegateHandleEvents = "delegate.handleEvents"
  /// The app's process started; `reason` is `user` or `background` (a wake).
  case appLaunch = "app.launch"
  /// The user brought the app to the foreground.
  case appForeground = "app.foreground"
  /// The app left the foreground; it runs for `backgroundRunTime`, then is suspended.
  case appBackground = "app.background"
  /// The system suspended the app: no code runs until it is resumed or relaunched.
  case appSuspend = "app.suspend"
  /// The system resumed the suspended app in the background (`reason`).
  case appResume = "app.resume"
  /// The process ended (`reason`: `system`, `forceQuit`, `watchdog`, `reboot`).
  case appTerminate = "app.terminate"
  /// The app called a session's `handleEvents` completion handler.
  case appCompletionHandlerCalled = "app.completionHandlerCalled"
  /// Recorded by a scenario's scripted app: `resumeFromData` named a task that left no resume data.
  case appResumeDataUnavailable = "app.resumeDataUnavailable"
  /// The app began a background-task assertion (`beginBackgroundTask(withName:)`).
  case appBeginBackgroundTask = "app.beginBackgroundTask"
  /// The app ended one (`endBackgroundTask`).
  case appEndBackgroundTask = "app.endBackgroundTask"
  /// The assertion's background time ran out: its expiration handler is called.
  case appBackgroundTaskExpired = "app.backgroundTaskExpired"
  /// App code said its callback takes `duration` of the app's own time (`AppContext.spend`):
  /// the app's next callbacks wait for it.
  case appBusy = "app.busy"
  /// The user opened one of the app's extensions (`name`): its process starts.
  case extensionLaunch = "extension.launch"
  /// The user left the extension (`name`); the system ends it `extensionEndsAfter` later.
  case extensionClose = "extension.close"
  /// The extension's process ended (`name`, `reason`); its background sessions' events go to
  /// the containing app.
  case extensionTerminate = "extension.terminate"
  /// A process could not connect a background session (`error`, `code`): an extension's session
  /// without a shared container (-995), or an identifier another process holds (-996). The
  /// session is invalidated at creation and each task made in it fails with the error.
  case sessionConnectFailed = "session.connectFailed"
  /// The app submitted a `BGContinuedProcessingTaskRequest` (`identifier`, `title`, `strategy`).
  case continuedSubmit = "continued.submit"
  /// The system refused the submission (`error`, `code`: `BGTaskScheduler.Error.Code`).
  case continuedRefused = "continued.refused"
  /// No room to run it now: the request waits in the queue (`position`, from 1).
  case continuedQueued = "continued.queued"
  /// The task started: its launch handler runs.
  case continuedStart = "continued.start"
  /// The app reported the task's progress (`completed` of `total` units).
  case continuedProgress = "continued.progress"
  /// The system expired the task (`reason`: `noProgress` or `user`): its expiration handler runs.
  case continuedExpire = "continued.expire"
  /// The task ended or the queued request was dropped (`result`: `succeeded`, `failed`,
  /// `expired`, `cancelledByUser`, `cancelledByAppSwitcher`, `processEnded`).
  case continuedEnd = "continued.end"
  /// The rate limiter let the app be woken: the `delay` it had set, and the wake's number.
  case rateLimiterWake = "ratelimiter.wake"
  /// The rate limiter's delay went back to its initial value (`reason`: `foreground` or `idle`).
  case rateLimiterReset = "ratelimiter.reset"
  /// An app error (`rule` is a `LintRule`); `session` or `task` names what it concerns.
  case lint = "lint"

  /// The trace name, as written in the `kind` of a JSON Lines record and in `expect` patterns.
  public var name: String { rawValue }

  /// Every key an event of this kind may carry, in the order the engine writes them.
  public var fieldNames: [String] {
    switch self {
    case .networkChange: return ["interface", "down", "up", "latency", "expensive", "constrained"]
    case .powerChange: return ["charging", "battery", "lowPowerMode"]
    case .serverChange: return ["url", "etag", "size", "status"]
    case .deviceReboot: return ["unlockAt"]
    case .deviceUnlock: return []
    case .sessionCreated: return ["session", "sessionKind", "process", "sharedContainer"]
    case .sessionConnectFailed: return ["session", "process", "error", "code", "heldBy"]
    case .sessionAllTasks: return ["session", "tasks"]
    case .sessionInvalidated: return ["session", "cancelTasks"]
    case .taskCreated:
      return ["task", "session", "taskIdentifier", "url", "taskKind", "discretionary", "method"]
    case .taskResume: return ["task", "session"]
    case .taskSuspend: return ["task", "session", "bytes"]
    case .taskResumeDataRejected: return ["task", "session", "problem"]
    case .taskDeferred: return ["task", "session", "reason", "until", "missing"]
    case .taskStarted: return ["task", "session", "taskIdentifier"]
    case .taskRetry: return ["task", "session", "attempt", "offset"]
    case .taskRedirect: return ["task", "from", "to"]
    case .taskChallenged, .delegateDidReceiveChallenge:
      return ["task", "level", "method", "realm", "previousFailureCount"]
    case .taskChallengeAnswered: return ["task", "disposition", "user"]
    case .taskAuthenticated, .taskChallengeTimedOut: return ["task", "session"]
    case .taskRestartedFromZero: return ["task", "reason"]
    case .taskStalled, .taskFlowing: return ["task", "bytes"]
    case .taskInterrupted: return ["task", "reason", "bytes"]
    case .taskPaused: return ["task", "reason"]
    case .taskFinished: return ["task", "session", "status", "bytes"]
    case .taskFailed:
      return ["task", "session", "error", "code", "resumeDataOffset", "networkUnavailableReason"]
    case .taskCancelled: return ["task", "session", "error", "code", "reason", "resumeDataOffset"]
    case .taskLost: return ["task", "reason"]
    case .delegateTaskIsWaitingForConnectivity: return ["task"]
    case .delegateWillPerformHTTPRedirection: return ["task", "to"]
    case .delegateWillBeginDelayedRequest: return ["task", "url"]
    case .taskDelayedRequestAnswered: return ["task", "disposition", "url"]
    case .delegateDidResumeAtOffset: return ["task", "offset", "total"]
    case .delegateDidWriteData: return ["task", "totalBytesWritten", "totalBytesExpectedToWrite"]
    case .delegateDidFinishDownloading: return ["task", "bytes", "description", "sharedContainer"]
    case .delegateDidReceiveData: return ["task", "bytes"]
    case .delegateDidComplete:
      return ["task", "error", "code", "reason", "resumeDataOffset", "networkUnavailableReason", "status"]
    case .delegateDidFinishEvents, .delegateHandleEvents: return ["session"]
    case .delegateDidBecomeInvalid: return ["session", "error"]
    case .appLaunch, .appResume, .appTerminate: return ["reason"]
    case .appForeground, .appBackground, .appSuspend: return []
    case .appCompletionHandlerCalled: return ["session"]
    case .appResumeDataUnavailable: return ["task", "path"]
    case .appBeginBackgroundTask, .appEndBackgroundTask, .appBackgroundTaskExpired: return ["name"]
    case .appBusy: return ["callback", "task", "duration"]
    case .extensionLaunch, .extensionClose: return ["name"]
    case .extensionTerminate: return ["name", "reason"]
    case .continuedSubmit: return ["identifier", "title", "strategy"]
    case .continuedRefused: return ["identifier", "error", "code"]
    case .continuedQueued: return ["identifier", "position"]
    case .continuedStart: return ["identifier"]
    case .continuedProgress: return ["identifier", "completed", "total"]
    case .continuedExpire: return ["identifier", "reason"]
    case .continuedEnd: return ["identifier", "result"]
    case .rateLimiterWake: return ["delay", "wake"]
    case .rateLimiterReset: return ["reason"]
    case .lint: return ["rule", "message", "session", "task", "api"]
    }
  }

  /// The kinds that end a task (each task ends with exactly one).
  public static let taskEndings: Set<TraceKind> = [.taskFinished, .taskFailed, .taskCancelled, .taskLost]

  /// The kinds of the app's lifecycle (`app.launch` ... `app.terminate`), the app-state timeline.
  public static let appLifecycle: Set<TraceKind> = [
    .appLaunch, .appForeground, .appBackground, .appSuspend, .appResume, .appTerminate,
  ]
}

extension TraceEvent {
  /// The event's kind in the engine's vocabulary, or nil for a kind the engine does not know.
  public var traceKind: TraceKind? { TraceKind(rawValue: kind) }

  /// True when the event is of `kind`.
  public func `is`(_ kind: TraceKind) -> Bool { self.kind == kind.rawValue }
}
