import SimKernel

/// Moving bytes: connecting, sharing the links, finishing, and interruptions with retries.
extension Simulation {
  /// Starts (or retries) a task admission let through: one round trip before bytes flow.
  func beginAttempt(_ task: SimURLSessionTask) {
    let firstStart = task.machine.startedAt == nil
    let attempt = task.machine.admit(at: now)
    task.record.admitted()
    if let stale = task.challenge.attemptStarted() { scheduler.cancel(stale) }
    if checksInvariants { checkStart(task, firstStart: firstStart) }
    let base = [
      TraceField("task", .string(task.name)), TraceField("session", .string(task.session.identifier)),
    ]
    switch attempt {
    case .start:
      emit(.taskStarted, base + [TraceField("taskIdentifier", .int(Int64(task.taskIdentifier)))])
    case .retry(let number):
      emit(
        .taskRetry,
        base + [
          TraceField("attempt", .int(Int64(number))),
          TraceField(
            "offset", .int(startOffset(task, status: links.server.status(for: task.currentURL, at: now)))),
        ])
    }
    scheduler.schedule(
      .connected(uid: task.uid, generation: task.machine.generation), after: links.network.latency * 2)
  }

  /// Redirects URLSession follows in a row before failing the task with
  /// `httpTooManyRedirects` (-1007): "the threshold for number of allowable redirects has been
  /// exceeded (currently 16)", developer.apple.com/documentation/foundation/urlerror/httptoomanyredirects.
  public static let maxRedirects = 16

  /// The response headers arrive: follow redirects, take the status, decide the offset and
  /// put the body on a link.
  func connected(_ task: SimURLSessionTask) {
    let url = task.currentURL
    if links.takeDrop(for: url) {
      interrupt(task, reason: "connectionDropped")
      rescheduleLinks()
      return
    }
    if authenticationTakesOver(task) { return }
    let server = links.server
    let status = server.status(for: url, at: now)
    if let target = server.resource(url)?.redirectTo, status < 400 {
      if task.redirectsInARow >= Self.maxRedirects {
        fail(task, SimURLError(.httpTooManyRedirects), freeingConnection: true)
        rescheduleLinks()
        return
      }
      if task.session.configuration.kind == .default, task.session.appSession != nil,
        lifecycle.state.isRunning
      {
        // The app decides, from the delivery step (the one place app code runs): the task
        // stays connecting until `redirectDecided` hears the answer.
        queueDelegateEvent(
          .willPerformHTTPRedirection(task, to: target, generation: task.machine.generation),
          for: task.session)
        return
      }
      followRedirect(task, to: target)
      return
    }
    respond(task, status: status)
  }

  /// The app answered `willPerformHTTPRedirection` for the attempt `generation`: follow the
  /// redirect, or take the 3xx response as the answer. An answer for an attempt that has
  /// ended since (the task was cancelled, or its connection cut) changes nothing.
  func redirectDecided(_ task: SimURLSessionTask, to target: SimURL, follow: Bool, generation: UInt32) {
    guard task.machine.generation == generation, !task.isFinished, task.machine.isActive else { return }
    if follow {
      followRedirect(task, to: target)
    } else {
      respond(task, status: links.server.status(for: task.currentURL, at: now))
    }
  }

  /// Follows a redirect: the next request goes to `target` after another round trip.
  private func followRedirect(_ task: SimURLSessionTask, to target: SimURL) {
    emit(
      .taskRedirect,
      [
        TraceField("task", .string(task.name)), TraceField("from", .string(task.currentURL.string)),
        TraceField("to", .string(target.string)),
      ])
    task.record.redirected(to: target)
    scheduler.schedule(
      .connected(uid: task.uid, generation: task.machine.generation), after: links.network.latency * 2)
  }

  /// The response to the task's current request: record it and put its body on a link.
  func respond(_ task: SimURLSessionTask, status: Int) {
    recordResponse(task, status: status)
    if task.fetchesBody {
      startDownloadBody(task, status: status)
    } else {
      guard case .joinLink(let up) = task.machine.connected(up: true) else { return }
      let remaining = task.uploadSize - task.countOfBytesSent
      // A resumed upload whose body the server already has in full: only the response is left.
      if remaining <= 0 && task.uploadSize > 0 {
        uploadBodyArrived(task, reportsSent: task.bytes.reportedTotal < task.uploadSize)
        rescheduleLinks()
        return
      }
      links.add(task.uid, up: up, bytes: remaining, now: now)
      task.bytes.flowJoined(remaining, up: up)
      if links.server.isStalled(task.currentURL, at: now) { run { engine.stall(task, into: &$0) } }
      armProgress(task)
      rescheduleLinks()
    }
  }

  /// Where a download's body starts when the server answers `status`: the offset of its resume
  /// data (first response only) or what it received, if the server still has the same version
  /// and honours ranges; else 0, a restart. An upload always starts from 0. The one rule for
  /// both the response and the `offset` that `task.retry` reports.
  func startOffset(_ task: SimURLSessionTask, status: Int) -> Int64 {
    // A resumable upload kept what the server has; any other upload kept nothing.
    guard task.isDownload else { return task.fetchesBody ? 0 : task.countOfBytesSent }
    let resource = links.server.resource(task.currentURL)
    let success = (200..<300).contains(status)
    let size = success ? (resource?.size ?? 0) : (resource?.responseBody ?? 0)
    // Resume data sets the offset of the task's first response only; a later attempt continues
    // from the bytes this task received, of the version it was fetching.
    let resumeData = task.countOfBytesExpectedToReceive < 0 ? task.resumeFrom : nil
    let wanted = resumeData.map(\.offset) ?? task.countOfBytesReceived
    guard wanted > 0, success, resource?.acceptsRanges == true,
      let v = links.server.validator(task.currentURL),
      v == (resumeData?.validator ?? task.bytes.fetchingValidator), wanted <= size
    else { return 0 }
    return wanted
  }

  private func startDownloadBody(_ task: SimURLSessionTask, status: Int) {
    let resource = links.server.resource(task.currentURL)
    let success = (200..<300).contains(status)
    let size = success ? (resource?.size ?? 0) : (resource?.responseBody ?? 0)
    let validator = links.server.validator(task.currentURL)
    let resumeData = task.countOfBytesExpectedToReceive < 0 ? task.resumeFrom : nil
    let offset = startOffset(task, status: status)
    task.bytes.downloadResponse(size: size, validator: validator, offset: offset, resumed: resumeData != nil)
    if let data = resumeData {
      queueDelegateEvent(.didResumeAtOffset(task, offset: offset, expectedTotal: size), for: task.session)
      if offset == 0 && data.offset > 0 {
        emit(
          .taskRestartedFromZero,
          [TraceField("task", .string(task.name)), TraceField("reason", .string("resourceChanged"))])
      }
    }
    guard case .joinLink(let up) = task.machine.connected(up: false) else { return }
    if size - offset == 0 {
      finish(task)
      return
    }
    links.add(task.uid, up: up, bytes: size - offset, now: now)
    task.bytes.flowJoined(size - offset, up: up)
    if links.server.isStalled(task.currentURL, at: now) { run { engine.stall(task, into: &$0) } }
    armProgress(task)
    rescheduleLinks()
  }

  /// Re-arms the single completion event of each link direction.
  func rescheduleLinks() {
    for up in [false, true] {
      if let old = links.completionHandle(up: up) { scheduler.cancel(old) }
      links.armed(
        up: up,
        links.nextCompletion(up: up).map { scheduler.schedule(.linkCompletion(up: up), at: max($0, now)) })
    }
  }

  func linkCompleted(up: Bool) {
    let done = links.popFinished(up: up, now: now)
    for uid in done {
      let task = daemon.tasks[Int(uid)]
      task.bytes.flowFinished()
      if up {
        uploadBodyArrived(task)
      } else {
        task.bytes.responseReceived(isDownload: task.fetchesBody)
        finish(task)
      }
    }
    rescheduleLinks()
  }

  /// An upload's body is all on the server: the response comes back, or the task is done. The
  /// last `didSendBodyData` is not repeated for a resumed upload that already reported it.
  private func uploadBodyArrived(_ task: SimURLSessionTask, reportsSent: Bool = true) {
    recordResponse(task, status: links.server.status(for: task.currentURL, at: now))
    let body = links.server.resource(task.currentURL)?.responseBody ?? 0
    task.bytes.uploadSent(size: task.uploadSize, responseBody: body)
    if reportsSent { reportBodyDone(task) }
    if body > 0 {
      switch task.machine.uploadBodySent() {
      case .joinDownLink: links.add(task.uid, up: false, bytes: body, now: now)
      }
      task.bytes.flowJoined(body, up: false)
    } else {
      finish(task)
    }
  }

  /// Takes a task off whatever it is doing (link, connecting) and frees its connection.
  func detachTransfer(_ task: SimURLSessionTask, freeConnection: Bool = true) {
    engine.detach(task)
    if freeConnection { releaseConnection(of: task) }
  }
}

extension Simulation {
  /// The response's status and headers, from the server model as it is now.
  func recordResponse(_ task: SimURLSessionTask, status: Int) {
    if checksInvariants { checkProtectedResponse(task, status: status) }
    var head = ResponseHead()
    if let resource = links.server.resource(task.currentURL) {
      let ok = (200...299).contains(status)
      head.contentLength = ok && task.fetchesBody ? resource.size : resource.responseBody
      head.etag = resource.etag
      head.lastModified = resource.lastModified
      head.acceptsRanges = resource.acceptsRanges
    }
    task.record.responded(status: status, head: head)
  }
}
