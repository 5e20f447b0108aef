import SimKernel

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The app-facing operations behind `SimURLSession` and `SimURLSessionTask`.
extension Simulation {
  /// `URLSession(configuration:delegate:delegateQueue:)`, called by the app through `AppContext`
  /// (`owner` `.app`) or by an extension (`makeSession(inExtension:...)`).
  func makeSession(
    _ configuration: SessionConfiguration, delegate: SimURLSessionDelegate?, owner: SessionOwner = .app
  )
    throws(SimAPIMisuse)
    -> SimURLSession
  {
    guard engine.isRunning(owner) else {
      switch owner {
      case .app:
        throw SimAPIMisuse(
          "the app created session '\(configuration.identifier)' while \(lifecycle.state.rawValue)")
      case .appExtension(let name):
        throw SimAPIMisuse(
          "extension '\(name)' created session '\(configuration.identifier)' while it was not running")
      }
    }
    if owner != .app && configuration.kind != .background {
      throw SimAPIMisuse(
        "extension '\(owner.traceName)' created default session '\(configuration.identifier)'; "
          + "bgsim models an extension's background sessions only")
    }
    let record: DaemonSession
    let problem = run { engine.connectionProblem(configuration, owner: owner, into: &$0) }
    if let problem {
      record = daemon.addSession(configuration, simulation: self, registers: false)
      record.connectionFailed(problem.0)
    } else if configuration.kind == .background,
      let existing = daemon.backgroundSessions[configuration.identifier]
    {
      record = existing
      if let live = existing.attached, !live.isInvalidated {
        lint(
          .duplicateSessionIdentifier,
          "a second background session with identifier '\(configuration.identifier)' was created while one exists; "
            + "keep one session object per identifier",
          [TraceField("session", .string(configuration.identifier))])
      }
    } else {
      record = daemon.addSession(configuration, simulation: self)
    }
    if configuration.kind == .background && delegate == nil {
      lint(
        .backgroundSessionWithoutDelegate, LintRule.sessionWithoutDelegateMessage(configuration.identifier),
        [TraceField("session", .string(configuration.identifier))])
    }
    let session = SimURLSession(
      configuration: configuration, delegate: delegate, record: record, simulation: self, owner: owner)
    record.attach(session)
    var fields = [
      TraceField("session", .string(configuration.identifier)),
      TraceField("sessionKind", .string(configuration.kind.rawValue)),
    ]
    if owner != .app { fields.append(TraceField("process", .string(owner.traceName))) }
    if let group = configuration.sharedContainerIdentifier {
      fields.append(TraceField("sharedContainer", .string(group)))
    }
    emit(.sessionCreated, fields)
    if let (code, heldBy) = problem {
      var failed = [
        TraceField("session", .string(configuration.identifier)),
        TraceField("process", .string(owner.traceName)),
        TraceField("error", .string(code.name)), TraceField("code", .int(Int64(code.rawValue))),
      ]
      if let heldBy { failed.append(TraceField("heldBy", .string(heldBy.traceName))) }
      emit(.sessionConnectFailed, failed)
    }
    scheduler.schedule(.deliver(sessionIndex: record.index), at: now)
    armProgressForSession(record)
    return session
  }

  func makeTask(
    in session: SimURLSession, kind: SimURLSessionTask.Kind, url text: String, name: String?,
    resumeData: ResumeDataContents?, method: String = "GET"
  ) throws(SimAPIMisuse) -> SimURLSessionTask {
    guard engine.isRunning(session.owner) else {
      throw SimAPIMisuse(
        session.owner == .app
          ? "the app created a task in session '\(session.identifier)' while \(lifecycle.state.rawValue)"
          : "extension '\(session.owner.traceName)' created a task in session '\(session.identifier)' "
            + "while it was not running")
    }
    guard !budgetCheckpoint() else {
      throw SimAPIMisuse("the run used up its budget (\(budgetExceeded!.limit.rawValue)); no more tasks")
    }
    guard !session.isInvalidated else {
      throw SimAPIMisuse("session '\(session.identifier)' was invalidated; it cannot create tasks")
    }
    guard let url = SimURL(text), url.isHTTP else {
      throw SimAPIMisuse(
        "'\(text)' is not an http or https URL; URLSession accepts only those in background sessions")
    }
    let record = session.record
    let task = SimURLSessionTask(
      uid: daemon.nextUID, taskIdentifier: record.nextIdentifier(), kind: kind, url: url, session: record,
      name: name, createdInBackground: session.owner == .app && lifecycle.state != .foreground,
      resumeFrom: resumeData)
    if kind == .download { task.httpMethod = method.uppercased() }
    record.add(task)
    daemon.addTask(task)
    if case .upload(_, let size) = kind { task.countOfBytesClientExpectsToSend = size }
    // The app's tasks only: the one-task-per-wake count is about what the woken app starts.
    if session.owner == .app { wakes.taskCreated() }
    var fields = [
      TraceField("task", .string(task.name)), TraceField("session", .string(record.identifier)),
      TraceField("taskIdentifier", .int(Int64(task.taskIdentifier))), TraceField("url", .string(url.string)),
      TraceField("taskKind", .string(task.kindName)),
    ]
    if task.isDiscretionary && record.isBackground { fields.append(TraceField("discretionary", .bool(true))) }
    if kind == .download && task.httpMethod != "GET" {
      fields.append(TraceField("method", .string(task.httpMethod)))
    }
    emit(.taskCreated, fields)
    if case .upload(false, _) = kind, record.isBackground {
      lint(
        .uploadFromData,
        "task '\(task.name)' uploads from data in background session '\(record.identifier)'; "
          + "write the body to a file and use uploadTask(with:fromFile:), or it fails once the app exits",
        [TraceField("task", .string(task.name))])
    }
    if kind == .data, record.isBackground {
      lint(
        .dataTaskInBackgroundSession,
        "task '\(task.name)' is a data task in background session '\(record.identifier)'; it fails with -997 "
          + "once the app is suspended: use a download task, or a default session",
        [TraceField("task", .string(task.name))])
    }
    if let data = resumeData {
      if daemon.useResumeData(data.token) {
        lint(
          .resumeDataReused,
          "task '\(task.name)' reuses resume data that was already used; resume data is single use, so it restarts from 0",
          [TraceField("task", .string(task.name))])
        task.record.resumeDataReused()
      }
      if let from = task.resumeFrom, from.upload != nil, from.offset > 0, uploadResumes(task) {
        task.bytes.uploadResumed(offset: from.offset, size: task.uploadSize)
      }
    }
    return task
  }

  /// `downloadTask(withResumeData:)` and (`upload`) `uploadTask(withResumeData:)`: data this
  /// simulation produced for that kind of task continues it; garbage, stale data or another
  /// kind's data still makes a task (as Darwin does), which fails when resumed.
  func makeResumedTask(in session: SimURLSession, data: Data, name: String?, upload: Bool = false)
    throws(SimAPIMisuse) -> SimURLSessionTask
  {
    var recognised = daemon.recognise(data)
    if case .success(let contents) = recognised, (contents.upload != nil) != upload {
      recognised = .failure(.wrongTaskKind)
    }
    switch recognised {
    case .success(let contents):
      let kind: SimURLSessionTask.Kind =
        contents.upload.map { .upload(fromFile: $0.fromFile, size: $0.bodySize) } ?? .download
      return try makeTask(in: session, kind: kind, url: contents.url.string, name: name, resumeData: contents)
    case .failure(let problem):
      let readable = try? ResumeDataContents(data)
      let url = readable?.url.string ?? Simulation.unknownResumeURL
      let kind: SimURLSessionTask.Kind =
        upload ? .upload(fromFile: true, size: readable?.upload?.bodySize ?? 0) : .download
      let task = try makeTask(in: session, kind: kind, url: url, name: name, resumeData: nil)
      task.record.resumeDataRejected(problem)
      emit(
        .taskResumeDataRejected,
        [
          TraceField("task", .string(task.name)), TraceField("session", .string(session.identifier)),
          TraceField("problem", .string(problem.name)),
        ])
      return task
    }
  }

  /// The URL a task made from unreadable resume data reports (the data names none).
  static let unknownResumeURL = "https://invalid.invalid/"

  /// `resume()`: the first call starts the resource timer and queues the task; a task made from
  /// resume data that could not be used fails at once with `cannotWriteToFile`. The call that
  /// balances the app's last `suspend()` queues the task again with the resource time it had left.
  func resume(_ task: SimURLSessionTask) {
    switch task.machine.resume() {
    case .none: return
    case .start:
      let sequence = daemon.nextResumeSequence()
      emitResume(task)
      let timeout = task.session.configuration.timeoutIntervalForResource
      let timer = scheduler.schedule(.resourceTimeout(uid: task.uid), after: timeout)
      task.record.resumed(sequence: sequence, resourceTimer: timer, deadline: now + timeout)
      if task.record.rejectedResumeData != nil {
        fail(task, SimURLError(.cannotWriteToFile), freeingConnection: false)
        return
      }
      // A session that could not connect (-995, -996): each of its tasks fails at once.
      if let code = task.session.connectionError {
        fail(task, SimURLError(code), freeingConnection: false)
        return
      }
    case .continue:
      emitResume(task)
      let left = task.record.resourceTimeLeft ?? task.session.configuration.timeoutIntervalForResource
      let timer = scheduler.schedule(.resourceTimeout(uid: task.uid), after: left)
      task.record.resumedByApp(resourceTimer: timer, deadline: now + left)
    }
    // With Background App Refresh off, a background session's work is cancelled once the app
    // leaves the foreground [S]: a task resumed after that goes the way of those running then.
    if task.session.isBackground && !deviceModel.backgroundAppRefresh && lifecycle.state != .foreground {
      cancelTask(task, produceResumeData: true, reason: .backgroundUpdatesDisabled, admitting: false)
      return
    }
    enqueue(task)
  }

  private func emitResume(_ task: SimURLSessionTask) {
    emit(
      .taskResume,
      [TraceField("task", .string(task.name)), TraceField("session", .string(task.session.identifier))])
  }

  /// `suspend()` on a resumed task: it stops where it is (off its link or queue, its connection
  /// freed), produces no traffic and is not subject to timeouts until the app resumes it [A]. A
  /// download continues from the bytes it has (a range request, as after a pause); an upload
  /// starts its body again. Nested calls only count; on a task not yet resumed or done it only
  /// counts, as in Foundation.
  func suspend(_ task: SimURLSessionTask) {
    guard task.machine.suspendStops else {
      switch task.machine.suspend(at: now) {
      case .ignore, .count: return
      case .stop: preconditionFailure("internal inconsistency: suspend stopped a task suspendStops kept")
      }
    }
    let holding = withdraw(task)
    let moved = task.isDownload ? task.countOfBytesReceived : task.countOfBytesSent
    if task.fetchesBody {
      if !task.isDownload { task.bytes.discardUploadProgress() }
    } else {
      uploadStopped(task)
    }
    guard task.machine.suspend(at: now) == .stop else {
      preconditionFailure("internal inconsistency: suspend did not stop a task suspendStops stopped")
    }
    let timers = task.record.suspendedByApp(at: now)
    if let handle = timers.resource { scheduler.cancel(handle) }
    if let handle = timers.request { scheduler.cancel(handle) }
    emit(
      .taskSuspend,
      [
        TraceField("task", .string(task.name)), TraceField("session", .string(task.session.identifier)),
        TraceField("bytes", .int(moved)),
      ])
    if holding { releaseConnection(of: task) }
    rescheduleLinks()
  }

  func invalidate(_ session: SimURLSession, cancelTasks: Bool) {
    guard !session.isInvalidated else { return }
    emit(
      .sessionInvalidated,
      [TraceField("session", .string(session.identifier)), TraceField("cancelTasks", .bool(cancelTasks))])
    if cancelTasks {
      for task in session.record.unfinishedTasks() where !task.isFinished {
        cancelTask(task, produceResumeData: false, reason: nil, admitting: false)
      }
    }
    let waits = session.record.outstanding > 0
    session.beginInvalidation(waitsForTasks: waits)
    if !waits { queueInvalidation(session) }
  }

  /// Queues `didBecomeInvalidWithError` behind the session's pending delegate events.
  func queueInvalidation(_ session: SimURLSession) {
    session.invalidationQueued()
    queueDelegateEvent(.didBecomeInvalid(session), for: session.record)
  }

  /// `taskIsWaitingForConnectivity`, for a default session that waits for connectivity.
  func notifyWaitingForConnectivity(_ task: SimURLSessionTask) {
    guard let session = task.session.appSession, lifecycle.state.isRunning else { return }
    emit(.delegateTaskIsWaitingForConnectivity, [TraceField("task", .string(task.name))])
    session.delegate?.urlSession(session, taskIsWaitingForConnectivity: task)
  }
}
