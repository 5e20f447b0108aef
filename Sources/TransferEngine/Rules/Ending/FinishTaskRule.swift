import SimKernel

/// Rule: a task's response has fully arrived (behavior.md, "Tasks"): it finished, whatever its
/// HTTP status (an error status is not a transport error [A]).
///
/// The task ends and `task.finished` is traced with its status and body bytes. The app is owed,
/// in order: for a download the last progress report (if it can hear it now) and
/// `didFinishDownloadingTo`; for a data task or an upload with a response body, `didReceiveData`;
/// then `didCompleteWithError` without an error. Its connection goes to the next waiting task,
/// and its session's bookkeeping follows (`Engine.taskEnded`).
enum FinishTaskRule {
  static func apply(_ task: SimURLSessionTask, engine: Engine, into effects: inout EffectBuffer) {
    engine.endTask(task, .finished, into: &effects)
    if engine.observing { effects.append(.observe(.taskFinished(uid: task.uid))) }
    let session = task.session
    effects.append(
      .trace(
        .taskFinished,
        [
          TraceField("task", .string(task.name)), TraceField("session", .string(session.identifier)),
          TraceField("status", .int(Int64(task.statusCode ?? 200))),
          TraceField("bytes", .int(task.fetchesBody ? task.countOfBytesReceived : task.countOfBytesSent)),
        ]))
    if task.isDownload {
      engine.reportBodyDone(task, into: &effects)
      engine.queueDelegateEvent(.didFinishDownloading(task), for: session, into: &effects)
    } else if task.kind == .data {
      if task.countOfBytesReceived > 0 {
        engine.queueDelegateEvent(
          .didReceiveData(task, bytes: task.countOfBytesReceived), for: session, into: &effects)
      }
    } else if task.bytes.responseBody > 0 {
      engine.queueDelegateEvent(
        .didReceiveData(task, bytes: task.bytes.responseBody), for: session, into: &effects)
    }
    engine.queueDelegateEvent(.didComplete(task, error: nil), for: session, into: &effects)
    AdmissionPassRule.releaseConnection(of: task, admitting: true, engine: engine, into: &effects)
    engine.taskEnded(task, into: &effects)
  }
}
