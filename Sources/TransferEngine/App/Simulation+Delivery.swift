import SimKernel

/// Delegate events and progress reports, the calls into the app: delivered live while the app
/// runs with the session attached, in the order they happened. Queueing them and timing the
/// reports is the engine's (`Rules/Delivery/`).
extension Simulation {
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
    engine.armProgress(task)
  }

  /// True when the app's main thread is busy now: the delivery is tried again when it is free.
  func deliveryWaitsForApp(_ record: DaemonSession) -> Bool {
    guard let stretch = appBusy.busy(at: now) else { return false }
    scheduler.schedule(.deliver(sessionIndex: record.index), at: stretch.until)
    return true
  }
}
