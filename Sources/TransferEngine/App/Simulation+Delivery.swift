import SimKernel

/// Delegate events: delivered live while the app runs with the session attached, queued
/// otherwise, in the order they happened.
extension Simulation {
  func queueDelegateEvent(_ event: DelegateEvent, for record: DaemonSession) {
    record.pending.append(event)
    if lifecycle.state.isRunning && record.attached != nil {
      scheduler.schedule(.deliver(sessionIndex: record.index), at: now)
    }
  }

  /// Delivers a session's queued events if the app can take them now; then, during a wake,
  /// `didFinishEvents` once the session has nothing left.
  func deliverPending(_ record: DaemonSession) {
    guard lifecycle.state.isRunning, let session = record.attached else { return }
    if let current = wake, current.sessions.contains(record.identifier),
      current.handlerCalled.contains(record.identifier)
        && !current.finishedEventsDelivered.contains(record.identifier)
    {
      return  // The handler came back early: the rest waits for the next wake or launch.
    }
    // Index through the queue (delegates may append to it) and drop the delivered prefix once:
    // removing one at a time would make a wake with thousands of queued events quadratic.
    var delivered = 0
    while delivered < record.pending.count && lifecycle.state.isRunning && record.attached === session {
      let event = record.pending[delivered]
      delivered += 1
      deliver(event, to: session)
    }
    record.pending.removeFirst(delivered)
    guard var current = wake, record.pending.isEmpty,
      current.sessions.contains(record.identifier),
      !current.finishedEventsDelivered.contains(record.identifier),
      lifecycle.state.isRunning
    else { return }
    current.finishedEventsDelivered.insert(record.identifier)
    wake = current
    emit("delegate.didFinishEvents", [TraceField("session", .string(record.identifier))])
    session.delegate?.urlSessionDidFinishEvents(forBackgroundURLSession: session)
  }

  private func deliver(_ event: DelegateEvent, to session: SimURLSession) {
    let delegate = session.delegate
    switch event {
    case .didResumeAtOffset(let task, let offset, let total):
      emit(
        "delegate.didResumeAtOffset",
        [
          TraceField("task", .string(task.name)), TraceField("offset", .int(offset)),
          TraceField("total", .int(total)),
        ])
      delegate?.urlSession(session, downloadTask: task, didResumeAtOffset: offset, expectedTotalBytes: total)
    case .didFinishDownloading(let task):
      var fields = [
        TraceField("task", .string(task.name)), TraceField("bytes", .int(task.countOfBytesReceived)),
      ]
      // The app identifies a download after a relaunch by what it stored in taskDescription (seed 003).
      if let description = task.taskDescription {
        fields.append(TraceField("description", .string(description)))
      }
      emit("delegate.didFinishDownloading", fields)
      task.downloadsDelivered += 1
      let file = DownloadedFile(task: task, bytes: task.countOfBytesReceived)
      delegate?.urlSession(session, downloadTask: task, didFinishDownloadingTo: file)
      if file.movedTo == nil {
        lint(
          .downloadedFileLost,
          "the file of '\(task.name)' was not moved in didFinishDownloadingTo; the system deletes it when the call "
            + "returns, so move it into the app's container there",
          [TraceField("task", .string(task.name))])
      }
    case .didReceiveData(let task, let bytes):
      emit(
        "delegate.didReceiveData", [TraceField("task", .string(task.name)), TraceField("bytes", .int(bytes))])
      delegate?.urlSession(session, dataTask: task, didReceiveData: bytes)
    case .didComplete(let task, let error):
      var fields = [TraceField("task", .string(task.name))]
      if let error {
        fields.append(TraceField("error", .string(error.code.name)))
        fields.append(TraceField("code", .int(Int64(error.code.rawValue))))
        if let reason = error.cancelReason { fields.append(TraceField("reason", .string(reason.name))) }
        if let data = error.resumeData { fields.append(TraceField("resumeDataOffset", .int(data.offset))) }
      } else {
        fields.append(TraceField("error", .string("none")))
        if let status = task.statusCode { fields.append(TraceField("status", .int(Int64(status)))) }
      }
      emit("delegate.didComplete", fields)
      task.completionsDelivered += 1
      delegate?.urlSession(session, task: task, didCompleteWithError: error)
    }
  }

  /// Arms the progress check of every running transfer of a session the app just attached.
  func armProgressForSession(_ record: DaemonSession) {
    for task in record.tasks {
      if case .transferring = task.phase { armProgress(task) }
    }
  }

  /// Schedules a check at the moment the transfer should cross its next tenth, at today's rate.
  /// Only while the app can hear it: progress is not queued for later.
  func armProgress(_ task: SimURLSessionTask) {
    guard lifecycle.state.isRunning, task.session.attached != nil, task.isDownload,
      case .transferring(false) = task.phase, task.stalledSince == nil, task.fetchingSize > 0,
      task.reportedDecile < 9
    else { return }
    settleBytes(task)
    let target = task.fetchingSize * Int64(task.reportedDecile + 1) / 10
    let bytesToGo = Double(max(1, target - task.countOfBytesReceived))
    let share = downLink.capacity / Double(max(1, downLink.activeCount))
    guard share > 0 else { return }
    scheduler.schedule(
      .progress(uid: task.uid, generation: task.generation), after: .seconds(rounding: bytesToGo / share))
  }

  /// A progress check: report `didWriteData` if a new tenth was crossed, then re-arm.
  func reportProgress(_ task: SimURLSessionTask) {
    guard case .transferring(false) = task.phase, task.isDownload else { return }
    settleBytes(task)
    let decile = Int(task.countOfBytesReceived * 10 / max(1, task.fetchingSize))
    if decile > task.reportedDecile, decile < 10, lifecycle.state.isRunning,
      let session = task.session.attached
    {
      let written = task.countOfBytesReceived
      task.reportedDecile = decile
      emit(
        "delegate.didWriteData",
        [
          TraceField("task", .string(task.name)), TraceField("totalBytesWritten", .int(written)),
          TraceField("totalBytesExpectedToWrite", .int(task.fetchingSize)),
        ])
      session.delegate?.urlSession(
        session, downloadTask: task, didWriteData: written, totalBytesWritten: written,
        totalBytesExpectedToWrite: task.fetchingSize)
    }
    armProgress(task)
  }
}
