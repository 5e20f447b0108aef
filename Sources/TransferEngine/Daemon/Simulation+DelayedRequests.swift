import SimKernel

/// `willBeginDelayedRequest` (behavior.md, "Delayed requests"): a background task with an
/// `earliestBeginDate`, once everything else would let it start, first asks a delegate that
/// implements the method whether to go on, with a new request, or not at all.
extension Simulation {
  /// Admission held `task` for its question: queue it for the app (waking the app if the knob
  /// says so). Asked once; the task waits with reason `delayedRequest` until the answer.
  func askDelayedRequest(_ task: SimURLSessionTask) {
    guard task.delayedRequest == .notAsked else { return }
    task.delayedRequest = .asked
    queueDelegateEvent(.willBeginDelayedRequest(task), for: task.session)
    // One wake per question: a woken app that does not take it (no session made) is not woken
    // again and again for it.
    let session = task.session
    if session.isBackground && !(lifecycle.state.isRunning && session.appSession != nil) {
      session.owesWake(true)
    }
    requestWakeCheck()
  }

  /// A session holds a question the app must answer before a task can start, and owes the app
  /// a wake for it.
  func awaitsDelayedRequestAnswer(_ record: DaemonSession) -> Bool {
    policy.delayedRequest.wakesApp && record.wantsWake
      && record.pending.contains { event in
        if case .willBeginDelayedRequest = event { return true }
        return false
      }
  }

  /// Hands a queued question to the app and carries out its answer. A task that stopped waiting
  /// meanwhile (cancelled, or suspended by the app) gets no question; a suspended one is asked
  /// again when it is resumed and ready.
  func deliverDelayedRequest(_ task: SimURLSessionTask, to session: SimURLSession) {
    guard task.delayedRequest == .asked, !task.isFinished else { return }
    guard task.machine.isWaiting else {
      task.delayedRequest = .notAsked
      return
    }
    emit(
      .delegateWillBeginDelayedRequest,
      [TraceField("task", .string(task.name)), TraceField("url", .string(task.currentURL.string))])
    let answer =
      session.delegate?.urlSession(session, task: task, willBeginDelayedRequestTo: task.currentURL)
      ?? .continueLoading
    delayedRequestAnswered(task, answer)
  }

  /// Carries out the answer: start as is, start with the new URL (in the new host's queue), or
  /// cancel (-999) [A].
  private func delayedRequestAnswered(_ task: SimURLSessionTask, _ answer: SimDelayedRequestDisposition) {
    guard !task.isFinished else { return }
    task.delayedRequest = .answered
    var fields = [TraceField("task", .string(task.name)), TraceField("disposition", .string(answer.name))]
    if case .useNewRequest(let url) = answer { fields.append(TraceField("url", .string(url.string))) }
    emit(.taskDelayedRequestAnswered, fields)
    switch answer {
    case .continueLoading:
      if task.machine.isWaiting { startWaiting(key: daemon.queueKey(task)) }
    case .useNewRequest(let url):
      guard task.machine.isWaiting else {
        task.record.requestReplaced(by: url)
        return
      }
      daemon.removeFromQueue(task)
      task.record.requestReplaced(by: url)
      enqueue(task)
    case .cancel:
      _ = cancelTask(task, produceResumeData: false, reason: nil)
    }
  }
}
