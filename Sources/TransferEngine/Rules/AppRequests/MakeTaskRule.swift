import SimKernel

/// Rule: the app (or an extension) makes a task in a session: `downloadTask`, `dataTask`,
/// `uploadTask`, or one of them from resume data (behavior.md, "Tasks").
///
/// The process must be running, the session not invalidated, the URL http or https; each
/// refusal is a `SimAPIMisuse` and makes nothing. The task is created suspended and traced; an
/// upload from data or a data task in a background session gets the lint that says what fails
/// later. Resume data is single use: reused data is linted and the task starts from 0; an
/// upload's resume data that can be used carries its offset.
enum MakeTaskRule {
  /// Why the session's process cannot make a task now, or nil when it can. The entry checks
  /// this before the run's budget, then calls `apply`.
  static func refusal(in session: SimURLSession, engine: Engine) -> SimAPIMisuse? {
    guard !engine.isRunning(session.owner) else { return nil }
    return SimAPIMisuse(
      session.owner == .app
        ? "the app created a task in session '\(session.identifier)' while \(engine.lifecycle.state.rawValue)"
        : "extension '\(session.owner.traceName)' created a task in session '\(session.identifier)' "
          + "while it was not running")
  }

  /// The new task, created suspended, for a process `refusal` let through.
  static func apply(
    in session: SimURLSession, kind: SimURLSessionTask.Kind, url text: String, name: String?,
    resumeData: ResumeDataContents?, method: String, engine: Engine, into effects: inout EffectBuffer
  ) throws(SimAPIMisuse) -> SimURLSessionTask {
    guard !session.isInvalidated else {
      throw SimAPIMisuse("session '\(session.identifier)' was invalidated; it cannot create tasks")
    }
    guard let url = SimURL(text), url.isHTTP else {
      throw SimAPIMisuse(
        "'\(text)' is not an http or https URL; URLSession accepts only those in background sessions")
    }
    let record = session.record
    let task = SimURLSessionTask(
      in: engine.tasks, taskIdentifier: record.nextIdentifier(), kind: kind, url: url,
      session: record,
      name: name, createdInBackground: session.owner == .app && engine.lifecycle.state != .foreground,
      resumeFrom: resumeData)
    if kind == .download { engine.tasks[task].httpMethod = method.uppercased() }
    record.add(task)
    engine.daemon.addTask(task)
    if case .upload(_, let size) = kind { task.countOfBytesClientExpectsToSend = size }
    // The app's tasks only: the one-task-per-wake count is about what the woken app starts.
    if session.owner == .app { engine.wakes.taskCreated() }
    traceCreated(task, kind: kind, in: record, into: &effects)
    lintBackgroundKind(task, kind: kind, in: record, into: &effects)
    if let data = resumeData { useResumeData(data, for: task, engine: engine, into: &effects) }
    return task
  }

  private static func traceCreated(
    _ task: SimURLSessionTask, kind: SimURLSessionTask.Kind, in record: DaemonSession,
    into effects: inout EffectBuffer
  ) {
    var fields = [
      TraceField("task", .string(task.name)), TraceField("session", .string(record.identifier)),
      TraceField("taskIdentifier", .int(Int64(task.taskIdentifier))),
      TraceField("url", .string(task.originalURL.string)), TraceField("taskKind", .string(task.kindName)),
    ]
    if task.isDiscretionary && record.isBackground { fields.append(TraceField("discretionary", .bool(true))) }
    if kind == .download && task.httpMethod != "GET" {
      fields.append(TraceField("method", .string(task.httpMethod)))
    }
    effects.append(.trace(.taskCreated, fields))
  }

  /// The kinds of task a background session cannot carry on once the app is gone.
  private static func lintBackgroundKind(
    _ task: SimURLSessionTask, kind: SimURLSessionTask.Kind, in record: DaemonSession,
    into effects: inout EffectBuffer
  ) {
    guard record.isBackground else { return }
    if case .upload(false, _) = kind {
      effects.append(
        .lint(
          .uploadFromData,
          "task '\(task.name)' uploads from data in background session '\(record.identifier)'; "
            + "write the body to a file and use uploadTask(with:fromFile:), or it fails once the app exits",
          [TraceField("task", .string(task.name))]))
    }
    if kind == .data {
      effects.append(
        .lint(
          .dataTaskInBackgroundSession,
          "task '\(task.name)' is a data task in background session '\(record.identifier)'; it fails with -997 "
            + "once the app is suspended: use a download task, or a default session",
          [TraceField("task", .string(task.name))]))
    }
  }

  /// Resume data is single use; an upload continues from its offset when it can.
  private static func useResumeData(
    _ data: ResumeDataContents, for task: SimURLSessionTask, engine: Engine, into effects: inout EffectBuffer
  ) {
    if engine.daemon.useResumeData(data.token) {
      effects.append(
        .lint(
          .resumeDataReused,
          "task '\(task.name)' reuses resume data that was already used; resume data is single use, so it restarts from 0",
          [TraceField("task", .string(task.name))]))
      engine.tasks[task].record.resumeDataReused()
    }
    if let from = task.resumeFrom, from.upload != nil, from.offset > 0,
      engine.uploadResumption(task) == .resumes
    {
      engine.tasks[task].bytes.uploadResumed(offset: from.offset, size: task.uploadSize)
    }
  }
}
