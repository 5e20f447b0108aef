import SimKernel

/// Rule: a progress check comes (behavior.md, "Progress"): a download reports `didWriteData`
/// (traced) or an upload `didSendBodyData` (not traced) when its body crossed a new tenth, at
/// most once a second per task and only while the app can hear it; then the next check is
/// armed. After a report the check is armed once the app's call returned (`.armProgress`), so
/// whatever the app did in it is seen.
enum ProgressRule {
  static func apply(_ task: SimURLSessionTask, engine: Engine, into effects: inout EffectBuffer) {
    guard engine.reportedTransfer(task) != nil else { return }
    engine.settleBytes(task)
    guard let (up, size, done) = engine.reportedTransfer(task) else { return }
    let decile = TransferBytes.tenths(done, of: max(1, size))
    guard decile > task.bytes.reportedDecile, decile < 10, engine.lifecycle.state.isRunning,
      engine.untilNextReportAllowed(task) == .zero, task.session.appSession != nil
    else {
      engine.armProgress(task, into: &effects)
      return
    }
    task.bytes.reported(decile: decile, at: engine.now)
    let step = task.bytes.reportedProgress(total: done)
    if !up {
      effects.append(
        .trace(
          .delegateDidWriteData,
          [
            TraceField("task", .string(task.name)), TraceField("totalBytesWritten", .int(done)),
            TraceField("totalBytesExpectedToWrite", .int(size)),
          ]))
    }
    effects.append(.callApp(.progress(uid: task.uid, up: up, step: step, done: done, size: size)))
    effects.append(.armProgress(uid: task.uid))
  }
}
