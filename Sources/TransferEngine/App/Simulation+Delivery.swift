import SimKernel

/// Delegate events: delivered live while the app runs with the session attached, queued
/// otherwise, in the order they happened.
extension Simulation {
  func queueDelegateEvent(_ event: DelegateEvent, for record: DaemonSession) {
    record.queue(event)
    if lifecycle.state.isRunning && record.appSession != nil {
      scheduler.schedule(.deliver(sessionIndex: record.index), at: now)
    }
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
        inAppCallback(callback.name, task: callback.task) { deliver(event, to: session) }
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

  private func deliver(_ event: DelegateEvent, to session: SimURLSession) {
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
      let file = DownloadedFile(task: task, bytes: task.countOfBytesReceived, sharedContainer: group)
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
      guard DelayedRequestAnsweredRule.asks(task) else { return }
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
      redirectDecided(task, to: target, follow: follow, generation: generation)
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

  /// Arms the progress check of every running transfer of a session the app just attached.
  func armProgressForSession(_ record: DaemonSession) {
    for task in record.unfinishedTasks() where task.machine.direction != nil { armProgress(task) }
  }

  /// What a task's progress reports are about now: a download's body coming in, or an upload's
  /// body going out, as (up, size, bytes so far); nil for anything else (a data task, an
  /// upload's response body, a task not on a link). A stalled transfer counts: a tenth crossed
  /// just before the stall is still reported.
  private func reportedTransfer(_ task: SimURLSessionTask) -> (up: Bool, size: Int64, done: Int64)? {
    guard let direction = task.machine.direction else { return nil }
    switch task.kind {
    case .download where !direction.up:
      return (false, task.bytes.fetchingSize, task.countOfBytesReceived)
    case .upload(_, let size) where direction.up:
      return (true, size, task.countOfBytesSent)
    default:
      return nil
    }
  }

  /// Schedules a check at the moment the transfer should cross its next tenth, at today's rate,
  /// and no sooner than a second after the last report (a fast transfer skips tenths). Only
  /// while the app can hear it: progress is not queued for later.
  func armProgress(_ task: SimURLSessionTask) {
    guard lifecycle.state.isRunning, task.session.appSession != nil, task.bytes.reportedDecile < 9,
      task.machine.direction?.stalled == false, reportedTransfer(task) != nil
    else { return }
    settleBytes(task)
    guard let (up, size, done) = reportedTransfer(task), size > 0 else { return }
    let target = TransferBytes.bytes(atTenth: task.bytes.reportedDecile + 1, of: size)
    let bytesToGo = Double(max(1, target - done))
    let share = up ? links.upShare : links.downShare
    guard share > 0 else { return }
    // At today's rate; a transfer that ends first cancels the check (`endTask`).
    let check = scheduler.schedule(
      .progress(uid: task.uid, generation: task.machine.generation),
      after: max(.seconds(rounding: bytesToGo / share), untilNextReportAllowed(task)))
    if let replaced = task.record.progressCheckArmed(check) { scheduler.cancel(replaced) }
  }

  /// Per-tenth reports come at most once per simulated second per task.
  private func untilNextReportAllowed(_ task: SimURLSessionTask) -> SimDuration {
    guard let last = task.bytes.reportedAt else { return .zero }
    let next = last + Self.progressInterval
    return next > now ? next - now : .zero
  }

  /// The shortest time between two per-tenth progress reports of one task.
  static let progressInterval = SimDuration.seconds(1)

  /// A progress check: report `didWriteData` (traced) or `didSendBodyData` (not traced) if a new
  /// tenth was crossed, then re-arm.
  func reportProgress(_ task: SimURLSessionTask) {
    guard reportedTransfer(task) != nil else { return }
    settleBytes(task)
    guard let (up, size, done) = reportedTransfer(task) else { return }
    let decile = TransferBytes.tenths(done, of: max(1, size))
    if decile > task.bytes.reportedDecile, decile < 10, lifecycle.state.isRunning,
      untilNextReportAllowed(task) == .zero, let session = task.session.appSession
    {
      task.bytes.reported(decile: decile, at: now)
      let step = task.bytes.reportedProgress(total: done)
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
    armProgress(task)
  }

  /// A body is all moved: one last progress call at 100%, if the app can hear it now (a body
  /// that finished while the app was suspended or not running gets none at the wake; an empty
  /// body gets none). For a download, `didWriteData`, queued ahead of `didFinishDownloadingTo`
  /// as on a device; for an upload, `didSendBodyData`, ahead of the response's calls.
  func reportBodyDone(_ task: SimURLSessionTask) {
    let total = task.isDownload ? task.countOfBytesReceived : task.countOfBytesSent
    guard total > 0, lifecycle.state.isRunning, task.session.appSession != nil else { return }
    let step = task.bytes.reportedProgress(total: total)
    task.bytes.reported(decile: 10)
    let event: DelegateEvent =
      task.isDownload
      ? .didWriteData(task, bytesWritten: step, total: total)
      : .didSendBodyData(task, bytesSent: step, total: total)
    queueDelegateEvent(event, for: task.session)
  }

  /// True when the app's main thread is busy now: the delivery is tried again when it is free.
  func deliveryWaitsForApp(_ record: DaemonSession) -> Bool {
    guard let stretch = appBusy.busy(at: now) else { return false }
    scheduler.schedule(.deliver(sessionIndex: record.index), at: stretch.until)
    return true
  }
}
