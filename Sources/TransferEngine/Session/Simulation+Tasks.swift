import SimKernel

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The app-facing operations behind `SimURLSession` and `SimURLSessionTask`.
extension Simulation {
  /// `URLSession(configuration:delegate:delegateQueue:)`, called by the app through `AppContext`.
  func makeSession(_ configuration: SessionConfiguration, delegate: SimURLSessionDelegate?)
    throws(SimAPIMisuse)
    -> SimURLSession
  {
    guard lifecycle.state.isRunning else {
      throw SimAPIMisuse(
        "the app created session '\(configuration.identifier)' while \(lifecycle.state.rawValue)")
    }
    let record: DaemonSession
    if configuration.kind == .background, let existing = daemon.backgroundSessions[configuration.identifier] {
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
    let session = SimURLSession(
      configuration: configuration, delegate: delegate, record: record, simulation: self)
    record.attach(session)
    emit(
      .sessionCreated,
      [
        TraceField("session", .string(configuration.identifier)),
        TraceField("sessionKind", .string(configuration.kind.rawValue)),
      ])
    scheduler.schedule(.deliver(sessionIndex: record.index), at: now)
    armProgressForSession(record)
    return session
  }

  func makeTask(
    in session: SimURLSession, kind: SimURLSessionTask.Kind, url text: String, name: String?,
    resumeData: ResumeDataContents?
  ) throws(SimAPIMisuse) -> SimURLSessionTask {
    guard lifecycle.state.isRunning else {
      throw SimAPIMisuse(
        "the app created a task in session '\(session.identifier)' while \(lifecycle.state.rawValue)")
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
      name: name, createdInBackground: lifecycle.state != .foreground, resumeFrom: resumeData)
    record.add(task)
    daemon.addTask(task)
    if case .upload(_, let size) = kind { task.countOfBytesClientExpectsToSend = size }
    wakes.taskCreated()
    var fields = [
      TraceField("task", .string(task.name)), TraceField("session", .string(record.identifier)),
      TraceField("taskIdentifier", .int(Int64(task.taskIdentifier))), TraceField("url", .string(url.string)),
      TraceField("taskKind", .string(task.isDownload ? "download" : "upload")),
    ]
    if task.isDiscretionary && record.isBackground { fields.append(TraceField("discretionary", .bool(true))) }
    emit(.taskCreated, fields)
    if case .upload(false, _) = kind, record.isBackground {
      lint(
        .uploadFromData,
        "task '\(task.name)' uploads from data in background session '\(record.identifier)'; "
          + "write the body to a file and use uploadTask(with:fromFile:), or it fails once the app exits",
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
    }
    return task
  }

  /// `downloadTask(withResumeData:)`: data this simulation produced continues its download;
  /// garbage or stale data still makes a task (as Darwin does), which fails when resumed.
  func makeResumedTask(in session: SimURLSession, data: Data, name: String?) throws(SimAPIMisuse)
    -> SimURLSessionTask
  {
    switch daemon.recognise(data) {
    case .success(let contents):
      return try makeTask(
        in: session, kind: .download, url: contents.url.string, name: name, resumeData: contents)
    case .failure(let problem):
      let url = (try? ResumeDataContents(data))?.url.string ?? Simulation.unknownResumeURL
      let task = try makeTask(in: session, kind: .download, url: url, name: name, resumeData: nil)
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
  /// resume data that could not be used fails at once with `cannotWriteToFile`.
  func resume(_ task: SimURLSessionTask) {
    guard task.machine.resume() else { return }
    let sequence = daemon.nextResumeSequence()
    emit(
      .taskResume,
      [TraceField("task", .string(task.name)), TraceField("session", .string(task.session.identifier))])
    let timer = scheduler.schedule(
      .resourceTimeout(uid: task.uid), after: task.session.configuration.timeoutIntervalForResource)
    task.record.resumed(sequence: sequence, resourceTimer: timer)
    if task.record.rejectedResumeData != nil {
      fail(task, SimURLError(.cannotWriteToFile), freeingConnection: false)
      return
    }
    enqueue(task)
  }

  func invalidate(_ session: SimURLSession, cancelTasks: Bool) {
    guard !session.isInvalidated else { return }
    emit(
      .sessionInvalidated,
      [TraceField("session", .string(session.identifier)), TraceField("cancelTasks", .bool(cancelTasks))])
    if cancelTasks {
      for task in session.record.tasks where !task.isFinished {
        cancelTask(task, produceResumeData: false, reason: nil, admitting: false)
      }
    }
    session.markInvalidated()
  }

  /// `taskIsWaitingForConnectivity`, for a default session that waits for connectivity.
  func notifyWaitingForConnectivity(_ task: SimURLSessionTask) {
    guard let session = task.session.attached, lifecycle.state.isRunning else { return }
    emit(.delegateTaskIsWaitingForConnectivity, [TraceField("task", .string(task.name))])
    session.delegate?.urlSession(session, taskIsWaitingForConnectivity: task)
  }
}
