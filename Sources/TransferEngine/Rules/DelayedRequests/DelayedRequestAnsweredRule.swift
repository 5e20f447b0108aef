import SimKernel

/// Rule: the app answers `willBeginDelayedRequest` (behavior.md, "Delayed requests"): start the
/// task as it is, start it with the new URL (in the new host's queue), or cancel it (-999) [A].
///
/// The question is put to the app only while the task still waits for it (`asks`): a task
/// cancelled meanwhile gets none, and one the app suspended meanwhile is asked again when it is
/// resumed and ready. An answer for a task that ended meanwhile changes nothing.
enum DelayedRequestAnsweredRule {
  /// Whether the queued question is still to be put to the app now; a task that stopped waiting
  /// (suspended by the app) is made to be asked again.
  static func asks(_ task: SimURLSessionTask, engine: Engine) -> Bool {
    guard task.delayedRequest == .asked, !task.isFinished else { return false }
    guard task.machine.isWaiting else {
      engine.tasks[task].delayedRequest = .notAsked
      return false
    }
    return true
  }

  /// Carries out `answer` for `task` and appends what follows.
  static func apply(
    _ task: SimURLSessionTask, _ answer: SimDelayedRequestDisposition, engine: Engine,
    into effects: inout EffectBuffer
  ) {
    guard !task.isFinished else { return }
    engine.tasks[task].delayedRequest = .answered
    var fields = [TraceField("task", .string(task.name)), TraceField("disposition", .string(answer.name))]
    if case .useNewRequest(let url) = answer { fields.append(TraceField("url", .string(url.string))) }
    effects.append(.trace(.taskDelayedRequestAnswered, fields))
    switch answer {
    case .continueLoading:
      if task.machine.isWaiting, let key = engine.daemon.queueKey(task) {
        effects.append(.admissionPass(key: key, full: false))
      }
    case .useNewRequest(let url):
      guard task.machine.isWaiting else {
        engine.tasks[task].requestReplaced(by: url)
        return
      }
      engine.daemon.removeFromQueue(task)
      engine.tasks[task].requestReplaced(by: url)
      effects.append(.enqueue(uid: task.uid))
    case .cancel:
      effects.append(
        .cancelTask(uid: task.uid, produceResumeData: false, reason: nil, admitting: true))
    }
  }
}
