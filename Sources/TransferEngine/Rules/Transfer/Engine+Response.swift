import SimKernel

/// A response arrives and its body goes on a link: shared by the rooms that take a response
/// (`ConnectedRule`, `RedirectDecidedRule`, a challenge's 401) and by the uplink finishing an
/// upload's body (`LinkCompletedRule`). The server's resource is looked up once per response and
/// handed along: each lookup hashes the whole URL.
extension Engine {
  /// The response to the task's current request: record it and put its body on a link (or, for
  /// an empty body, finish the task).
  func respond(_ task: SimURLSessionTask, status: Int, into effects: inout EffectBuffer) {
    respond(task, status: status, resource: links.server.resource(task.currentURL), into: &effects)
  }

  /// `respond`, with `resource` the server's resource at the task's current URL.
  func respond(
    _ task: SimURLSessionTask, status: Int, resource: ServerResource?, into effects: inout EffectBuffer
  ) {
    recordResponse(task, status: status, resource: resource, into: &effects)
    if task.fetchesBody {
      startDownloadBody(task, status: status, resource: resource, into: &effects)
      return
    }
    guard case .joinLink(let up) = tasks[task].machine.connected(up: true) else { return }
    let remaining = task.uploadSize - task.countOfBytesSent
    // A resumed upload whose body the server already has in full: only the response is left.
    if remaining <= 0 && task.uploadSize > 0 {
      uploadBodyArrived(task, reportsSent: task.bytes.reportedTotal < task.uploadSize, into: &effects)
      rescheduleLinks(after: &effects)
      return
    }
    joinLink(task, up: up, bytes: remaining, into: &effects)
  }

  /// The response's status and headers, from the server model as it is now.
  func recordResponse(_ task: SimURLSessionTask, status: Int, into effects: inout EffectBuffer) {
    recordResponse(task, status: status, resource: links.server.resource(task.currentURL), into: &effects)
  }

  private func recordResponse(
    _ task: SimURLSessionTask, status: Int, resource: ServerResource?, into effects: inout EffectBuffer
  ) {
    if observing { effects.append(.observe(.response(uid: task.uid, status: status))) }
    var head = ResponseHead()
    if let resource {
      let ok = (200...299).contains(status)
      head.contentLength = ok && task.fetchesBody ? resource.size : resource.responseBody
      head.etag = resource.etag
      head.lastModified = resource.lastModified
      head.acceptsRanges = resource.acceptsRanges
    }
    tasks[task].record.responded(status: status, head: head)
  }

  /// Where a download's body starts when the server answers `status`: the offset of its resume
  /// data (first response only) or what it received, if the server still has the same version
  /// and honours ranges; else 0, a restart. An upload always starts from 0. The one rule for
  /// both the response and the `offset` that `task.retry` reports.
  /// `resource` is the server's resource at the task's current URL.
  func startOffset(_ task: SimURLSessionTask, status: Int, resource: ServerResource?) -> Int64 {
    // A resumable upload kept what the server has; any other upload kept nothing.
    guard task.fetchesBody else { return task.countOfBytesSent }
    return bodyStart(task, status: status, resource: resource).offset
  }

  /// A body the task fetches, as the server answers `status`: its size, the resume data that
  /// sets the offset of the task's first response, and the offset (`startOffset`'s rule).
  private func bodyStart(_ task: SimURLSessionTask, status: Int, resource: ServerResource?) -> (
    size: Int64, resumeData: ResumeDataContents?, offset: Int64
  ) {
    let success = (200..<300).contains(status)
    let size = success ? (resource?.size ?? 0) : (resource?.responseBody ?? 0)
    // Resume data sets the offset of the task's first response only; a later attempt continues
    // from the bytes this task received, of the version it was fetching.
    let resumeData = task.countOfBytesExpectedToReceive < 0 ? task.resumeFrom : nil
    guard task.isDownload else { return (size, resumeData, 0) }
    let wanted = resumeData.map(\.offset) ?? task.countOfBytesReceived
    guard wanted > 0, success, resource?.acceptsRanges == true,
      let v = resource?.validator, v == (resumeData?.validator ?? task.bytes.fetchingValidator),
      wanted <= size
    else { return (size, resumeData, 0) }
    return (size, resumeData, wanted)
  }

  /// A download's or data task's body: from the offset `startOffset` decides, the app told
  /// `didResumeAtOffset` when resume data made the task (and a restart from 0 traced).
  private func startDownloadBody(
    _ task: SimURLSessionTask, status: Int, resource: ServerResource?, into effects: inout EffectBuffer
  ) {
    let (size, resumeData, offset) = bodyStart(task, status: status, resource: resource)
    tasks[task].bytes.downloadResponse(
      size: size, validator: resource?.validator, offset: offset, resumed: resumeData != nil)
    if let data = resumeData {
      queueDelegateEvent(
        .didResumeAtOffset(task, offset: offset, expectedTotal: size), for: task.session, into: &effects)
      if offset == 0 && data.offset > 0 {
        effects.append(
          .trace(
            .taskRestartedFromZero,
            [TraceField("task", .string(task.name)), TraceField("reason", .string("resourceChanged"))]))
      }
    }
    guard case .joinLink(let up) = tasks[task].machine.connected(up: false) else { return }
    if size - offset == 0 {
      effects.append(.finish(uid: task.uid))
      return
    }
    joinLink(task, up: up, bytes: size - offset, into: &effects)
  }

  /// A body of `bytes` joins its link direction: stalled at once if the server stalls it, its
  /// progress check armed, the links re-armed.
  private func joinLink(_ task: SimURLSessionTask, up: Bool, bytes: Int64, into effects: inout EffectBuffer) {
    links.add(task.uid, up: up, bytes: bytes, now: now)
    tasks[task].bytes.flowJoined(bytes, up: up)
    if links.server.isStalled(task.currentURL, at: now) { stall(task, into: &effects) }
    effects.append(.armProgress(uid: task.uid))
    rescheduleLinks(after: &effects)
  }

  /// An upload's body is all on the server: the response comes back, or the task is done. The
  /// last `didSendBodyData` is not repeated for a resumed upload that already reported it.
  func uploadBodyArrived(
    _ task: SimURLSessionTask, reportsSent: Bool = true, into effects: inout EffectBuffer
  ) {
    let resource = links.server.resource(task.currentURL)
    let status = links.server.status(for: task.currentURL, resource: resource, at: now)
    recordResponse(task, status: status, resource: resource, into: &effects)
    let body = resource?.responseBody ?? 0
    tasks[task].bytes.uploadSent(size: task.uploadSize, responseBody: body)
    if reportsSent { effects.append(.reportBodyDone(uid: task.uid)) }
    guard body > 0 else {
      effects.append(.finish(uid: task.uid))
      return
    }
    switch tasks[task].machine.uploadBodySent() {
    case .joinDownLink: links.add(task.uid, up: false, bytes: body, now: now)
    }
    tasks[task].bytes.flowJoined(body, up: false)
  }
}
