import SimKernel

/// Moving bytes: connecting, sharing the links, finishing, and interruptions with retries.
extension Simulation {
  /// Starts (or retries) a task that may start: one round trip before bytes flow.
  func beginAttempt(_ task: SimURLSessionTask) {
    task.attempts += 1
    task.lastWaitReason = nil
    task.phase = .connecting
    task.state = .running
    if checksInvariants { checkStart(task, firstStart: task.startedAt == nil) }
    let base = [
      TraceField("task", .string(task.name)), TraceField("session", .string(task.session.identifier)),
    ]
    if task.startedAt == nil {
      task.startedAt = now
      emit("task.started", base + [TraceField("taskIdentifier", .int(Int64(task.taskIdentifier)))])
    } else {
      emit(
        "task.retry",
        base + [
          TraceField("attempt", .int(Int64(task.attempts))),
          TraceField("offset", .int(task.countOfBytesReceived)),
        ])
    }
    scheduler.schedule(.connected(uid: task.uid, generation: task.generation), after: network.latency * 2)
  }

  /// The response headers arrive: follow redirects, take the status, decide the offset and
  /// put the body on a link.
  func connected(_ task: SimURLSessionTask) {
    let url = task.currentURL
    if server.takeDrop(for: url) {
      interrupt(task, reason: "connectionDropped")
      rescheduleLinks()
      return
    }
    let status = server.status(for: url, at: now)
    if let target = server.resource(url)?.redirectTo, status < 400 {
      var follow = true
      if task.session.configuration.kind == .default, let session = task.session.attached,
        lifecycle.state.isRunning
      {
        emit(
          "delegate.willPerformHTTPRedirection",
          [TraceField("task", .string(task.name)), TraceField("to", .string(target.string))])
        follow =
          session.delegate?.urlSession(session, task: task, willPerformHTTPRedirectionTo: target) ?? true
      }
      if follow {
        emit(
          "task.redirect",
          [
            TraceField("task", .string(task.name)), TraceField("from", .string(url.string)),
            TraceField("to", .string(target.string)),
          ])
        task.currentURL = target
        scheduler.schedule(.connected(uid: task.uid, generation: task.generation), after: network.latency * 2)
        return
      }
    }
    task.statusCode = status
    if task.isDownload {
      startDownloadBody(task, status: status)
    } else {
      task.phase = .transferring(up: true)
      let remaining = task.uploadSize - task.countOfBytesSent
      upLink.add(task.uid, bytes: remaining, now: now)
      task.flowBytes = remaining
      if server.isStalled(task.currentURL, at: now) { stall(task) }
      armProgress(task)
      rescheduleLinks()
    }
  }

  private func startDownloadBody(_ task: SimURLSessionTask, status: Int) {
    let resource = server.resource(task.currentURL)
    let success = (200..<300).contains(status)
    let size = success ? (resource?.size ?? 0) : (resource?.responseBody ?? 0)
    let validator = server.validator(task.currentURL)
    // Resume data sets the offset of the task's first response only; a later attempt continues
    // from the bytes this task received, of the version it was fetching.
    let resumeData = task.countOfBytesExpectedToReceive < 0 ? task.resumeFrom : nil
    // A range request continues only if the server still has the same version and honours ranges.
    var offset: Int64 = 0
    let wanted = resumeData.map(\.offset) ?? task.countOfBytesReceived
    if wanted > 0, success, resource?.acceptsRanges == true, let v = validator,
      v == (resumeData?.validator ?? task.fetchingValidator), wanted <= size
    {
      offset = wanted
    }
    if offset == 0 { task.bytesWasted += task.countOfBytesReceived }
    if let data = resumeData {
      task.inheritedBytes = offset
      queueDelegateEvent(.didResumeAtOffset(task, offset: offset, expectedTotal: size), for: task.session)
      if offset == 0 && data.offset > 0 {
        emit(
          "task.restartedFromZero",
          [TraceField("task", .string(task.name)), TraceField("reason", .string("resourceChanged"))])
      }
    }
    task.countOfBytesReceived = offset
    task.countOfBytesExpectedToReceive = size
    task.fetchingSize = size
    task.fetchingValidator = validator
    task.reportedDecile = size > 0 ? Int(offset * 10 / size) : 0
    task.phase = .transferring(up: false)
    if size - offset == 0 {
      finish(task)
      return
    }
    downLink.add(task.uid, bytes: size - offset, now: now)
    task.flowBytes = size - offset
    if server.isStalled(task.currentURL, at: now) { stall(task) }
    armProgress(task)
    rescheduleLinks()
  }

  /// Re-arms the single completion event of each link direction.
  func rescheduleLinks() {
    for up in [false, true] {
      let link = up ? upLink : downLink
      let slot = up ? 1 : 0
      if let handle = linkHandles[slot] { scheduler.cancel(handle) }
      linkHandles[slot] = link.nextCompletion().map {
        scheduler.schedule(.linkCompletion(up: up), at: max($0, now))
      }
    }
  }

  func linkCompleted(up: Bool) {
    linkHandles[up ? 1 : 0] = nil
    let done = up ? upLink.popFinished(now: now) : downLink.popFinished(now: now)
    for uid in done {
      let task = tasks[Int(uid)]
      task.bytesOnWire += task.flowBytes
      if up {
        task.countOfBytesSent = task.uploadSize
        let status = server.status(for: task.currentURL, at: now)
        task.statusCode = status
        let body = server.resource(task.currentURL)?.responseBody ?? 0
        task.responseBodyBytes = body
        task.countOfBytesExpectedToReceive = body
        if body > 0 {
          task.phase = .transferring(up: false)
          downLink.add(task.uid, bytes: body, now: now)
          task.flowBytes = body
        } else {
          finish(task)
        }
      } else {
        task.countOfBytesReceived = task.isDownload ? task.fetchingSize : task.responseBodyBytes
        finish(task)
      }
    }
    rescheduleLinks()
  }

  /// Bytes a running transfer has moved so far on its current link.
  func settleBytes(_ task: SimURLSessionTask) {
    guard case .transferring(let up) = task.phase else { return }
    let link = up ? upLink : downLink
    guard let remaining = link.bytesRemaining(task.uid, now: now) else { return }
    if up {
      task.countOfBytesSent = max(0, task.uploadSize - Int64(remaining.rounded(.up)))
    } else {
      let total = task.isDownload ? task.fetchingSize : task.responseBodyBytes
      task.countOfBytesReceived = max(0, total - Int64(remaining.rounded(.up)))
    }
  }

  /// Takes a task off whatever it is doing (link, connecting) and frees its connection.
  func detachTransfer(_ task: SimURLSessionTask, freeConnection: Bool = true) {
    settleBytes(task)
    switch task.phase {
    case .transferring(let up):
      let remaining = up ? upLink.remove(task.uid, now: now) : downLink.remove(task.uid, now: now)
      task.bytesOnWire += task.flowBytes - Int64(remaining.rounded(.up))
    default: break
    }
    task.stalledSince = nil
    task.generation &+= 1
    if freeConnection { releaseConnection(of: task) }
  }

  /// The connection broke (network lost, interface changed, server dropped it).
  ///
  /// A background task waits out the retry backoff and tries again; a default session's task
  /// fails with -1005, with resume data when the download could resume.
  func interrupt(_ task: SimURLSessionTask, reason: String) {
    let wasActive: Bool
    switch task.phase {
    case .connecting, .transferring: wasActive = true
    default: wasActive = false
    }
    guard wasActive else { return }
    detachTransfer(task, freeConnection: false)
    emit(
      "task.interrupted",
      [
        TraceField("task", .string(task.name)), TraceField("reason", .string(reason)),
        TraceField("bytes", .int(task.isDownload ? task.countOfBytesReceived : task.countOfBytesSent)),
      ])
    if task.session.configuration.kind == .default {
      releaseConnection(of: task)
      fail(
        task, SimURLError(.networkConnectionLost, resumeData: makeResumeData(task)), freeingConnection: false)
      return
    }
    if !task.isDownload { discardUploadProgress(task) }
    task.phase = .backoff
    task.lastWaitReason = .retryBackoff
    let exponent = min(task.attempts - 1, 30)
    var wait = policy.retry.backoff * (Int64(1) << Int64(exponent))
    if wait > policy.retry.maxBackoff { wait = policy.retry.maxBackoff }
    scheduler.schedule(.retry(uid: task.uid, generation: task.generation), after: wait)
    releaseConnection(of: task)
  }

  /// An upload cannot continue where it stopped: its next attempt sends the body again and
  /// receives the whole response, so what both directions moved so far is wasted.
  func discardUploadProgress(_ task: SimURLSessionTask) {
    task.bytesWasted += task.countOfBytesSent + task.countOfBytesReceived
    task.countOfBytesSent = 0
    task.countOfBytesReceived = 0
  }

  func backoffEnded(_ task: SimURLSessionTask) {
    guard task.phase == .backoff else { return }
    enqueue(task)
  }

  func resourceTimedOut(_ task: SimURLSessionTask) {
    guard !task.isFinished else { return }
    task.resourceTimeoutHandle = nil
    let wasConnected = withdraw(task)
    fail(task, SimURLError(.timedOut, resumeData: makeResumeData(task)), freeingConnection: wasConnected)
    rescheduleLinks()
  }

  /// A default session's transfer stayed idle past `timeoutIntervalForRequest`.
  func requestTimedOut(_ task: SimURLSessionTask) {
    if task.stalledSince != nil {
      stalledRequestTimedOut(task)
      return
    }
    guard task.phase == .paused else { return }
    fail(task, SimURLError(.timedOut, resumeData: makeResumeData(task)), freeingConnection: false)
  }

  func isHoldingConnection(_ task: SimURLSessionTask) -> Bool {
    switch task.phase {
    case .connecting, .transferring: return true
    default: return false
    }
  }
}
