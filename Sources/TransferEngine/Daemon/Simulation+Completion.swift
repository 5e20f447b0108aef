import SimKernel

/// How tasks end: finished (any HTTP status), failed with a transport error, or cancelled.
extension Simulation {
  /// The response body has fully arrived. HTTP error statuses are not transport errors [A].
  func finish(_ task: SimURLSessionTask) {
    endTask(task, .finished)
    checker.taskFinished(task.uid)
    let status = Int64(task.statusCode ?? 200)
    emit(
      .taskFinished,
      [
        TraceField("task", .string(task.name)), TraceField("session", .string(task.session.identifier)),
        TraceField("status", .int(status)),
        TraceField("bytes", .int(task.fetchesBody ? task.countOfBytesReceived : task.countOfBytesSent)),
      ])
    if task.isDownload {
      reportBodyDone(task)
      queueDelegateEvent(.didFinishDownloading(task), for: task.session)
    } else if task.kind == .data {
      if task.countOfBytesReceived > 0 {
        queueDelegateEvent(.didReceiveData(task, bytes: task.countOfBytesReceived), for: task.session)
      }
    } else if task.bytes.responseBody > 0 {
      queueDelegateEvent(.didReceiveData(task, bytes: task.bytes.responseBody), for: task.session)
    }
    queueDelegateEvent(.didComplete(task, error: nil), for: task.session)
    releaseConnection(of: task)
    taskEnded(task)
  }

  /// The task failed with a transport error.
  func fail(_ task: SimURLSessionTask, _ error: SimURLError, freeingConnection: Bool) {
    endTask(task, .failed)
    task.record.failed(error)
    var fields = [
      TraceField("task", .string(task.name)), TraceField("session", .string(task.session.identifier)),
      TraceField("error", .string(error.code.name)), TraceField("code", .int(Int64(error.code.rawValue))),
    ]
    if let data = error.resumeContents { fields.append(TraceField("resumeDataOffset", .int(data.offset))) }
    if let unavailable = error.networkUnavailableReason {
      fields.append(TraceField("networkUnavailableReason", .string(unavailable.name)))
    }
    emit(.taskFailed, fields)
    queueDelegateEvent(.didComplete(task, error: error), for: task.session)
    if freeingConnection { releaseConnection(of: task) }
    taskEnded(task)
  }

  /// Cancels a task (the app's `cancel()`, a force quit, Background App Refresh off,
  /// `invalidateAndCancel`). Resume data only when asked for and the download can resume.
  /// `admitting` false when the cancellation is one of a batch that ends every task of its
  /// session: the freed connection is not offered to a task about to be cancelled too.
  @discardableResult
  func cancelTask(
    _ task: SimURLSessionTask, produceResumeData: Bool, reason: SimURLError.CancelReason?,
    admitting: Bool = true
  ) -> ResumeDataContents? {
    guard !task.isFinished else { return nil }
    let holding = withdraw(task)
    let data = produceResumeData ? makeResumeData(task) : nil
    endTask(task, .cancelled)
    let error = SimURLError(.cancelled, resume: data, cancelReason: reason)
    task.record.cancelled(reason: reason, error: error)
    var fields = [
      TraceField("task", .string(task.name)), TraceField("session", .string(task.session.identifier)),
      TraceField("error", .string(error.code.name)), TraceField("code", .int(Int64(error.code.rawValue))),
    ]
    if let reason { fields.append(TraceField("reason", .string(reason.name))) }
    if let data { fields.append(TraceField("resumeDataOffset", .int(data.offset))) }
    emit(.taskCancelled, fields)
    queueDelegateEvent(.didComplete(task, error: error), for: task.session)
    if holding { releaseConnection(of: task, admitting: admitting) }
    rescheduleLinks()
    taskEnded(task)
    return data
  }

  /// Takes an unfinished task off its link or its wait queue; true when it held a connection,
  /// which the caller frees once the task has ended.
  func withdraw(_ task: SimURLSessionTask) -> Bool {
    let holding = task.machine.isActive
    if holding {
      detachTransfer(task, freeConnection: false)
    } else if task.machine.isWaiting {
      daemon.removeFromQueue(task)
    }
    return holding
  }

  /// Marks a task done and disarms its timers; the one place a task's life ends.
  func endTask(_ task: SimURLSessionTask, _ outcome: TaskStateMachine.Outcome) {
    checker.taskEnded(task.uid)
    settleBytes(task)
    switch task.machine.end(outcome) {
    case .ended: break
    case .endedTwice: inconsistency(.taskCompletesOnce, "task '\(task.name)' completed twice")
    }
    let timers = task.record.ended()
    if let handle = timers.resource { scheduler.cancel(handle) }
    if let handle = timers.request { scheduler.cancel(handle) }
    if let handle = timers.progress { scheduler.cancel(handle) }
  }

  /// Session bookkeeping once a task has ended: a background session whose work is all done
  /// may owe the app a wake.
  private func taskEnded(_ task: SimURLSessionTask) {
    let session = task.session
    session.taskEnded()
    if session.outstanding == 0, let live = session.attached, live.awaitsTasksBeforeInvalid {
      queueInvalidation(live)
    }
    if session.isBackground && !(lifecycle.state.isRunning && session.appSession != nil) {
      session.owesWake(true)
    }
    requestWakeCheck()
  }

  /// Resume data for a download that can resume: a GET whose server sent a validator and
  /// accepts byte ranges, with its partial file still there [A]. Nil otherwise.
  /// An upload's resume data follows its own rule (`makeUploadResumeData`).
  func makeResumeData(_ task: SimURLSessionTask) -> ResumeDataContents? {
    if case .upload = task.kind { return makeUploadResumeData(task) }
    guard task.isDownload, task.httpMethod == "GET",
      let validator = task.bytes.fetchingValidator ?? task.resumeFrom?.validator,
      links.server.resource(task.currentURL)?.acceptsRanges == true
    else { return nil }
    return daemon.issueResumeData(
      url: task.currentURL, offset: task.countOfBytesReceived, validator: validator,
      sessionIdentifier: task.session.identifier)
  }
}
