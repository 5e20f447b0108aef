import SimKernel

/// What the engine owes the app's delegate (behavior.md, "Delegate delivery"): its events queued
/// in order, and when progress reports are due, with the last one at 100% when a body is all
/// moved. The calls into the app are the interpreter's (`Simulation.deliverPending`,
/// `reportProgress`).
extension Engine {
  /// Queues `event` for the app in `record`'s order (behavior.md, "Delegate delivery"): a
  /// delivery is scheduled now when the app runs with the session attached; otherwise the event
  /// waits for a wake or a launch.
  func queueDelegateEvent(_ event: DelegateEvent, for record: DaemonSession, into effects: inout EffectBuffer)
  {
    record.queue(event)
    if lifecycle.state.isRunning && record.appSession != nil {
      effects.append(.schedule(.deliver(sessionIndex: record.index), at: now))
    }
  }

  /// The shortest time between two per-tenth progress reports of one task.
  static let progressInterval = SimDuration.seconds(1)

  /// Arms the progress check of every running transfer of a session the app just attached, in
  /// creation order; from the session's active transfers (short), not its unfinished tasks.
  func armProgressForSession(_ record: DaemonSession) {
    for uid in record.activeUIDs.sorted() {
      let task = daemon.task(uid)
      if task.machine.direction != nil { armProgress(task) }
    }
  }

  /// What a task's progress reports are about now: a download's body coming in, or an upload's
  /// body going out, as (up, size, bytes so far); nil for anything else (a data task, an
  /// upload's response body, a task not on a link). A stalled transfer counts: a tenth crossed
  /// just before the stall is still reported.
  func reportedTransfer(_ task: SimURLSessionTask) -> (up: Bool, size: Int64, done: Int64)? {
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
  /// while the app can hear it: progress is not queued for later. The check's handle is the
  /// task's own bookkeeping (it replaces the one armed before, and the task's end cancels it),
  /// so it is scheduled on `scheduler` here, not through an effect.
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
    if let replaced = tasks[task].record.progressCheckArmed(check) { scheduler.cancel(replaced) }
  }

  /// Per-tenth reports come at most once per simulated second per task.
  func untilNextReportAllowed(_ task: SimURLSessionTask) -> SimDuration {
    guard let last = task.bytes.reportedAt else { return .zero }
    let next = last + Self.progressInterval
    return next > now ? next - now : .zero
  }

  /// A body is all moved: one last progress call at 100%, if the app can hear it now (a body
  /// that finished while the app was suspended or not running gets none at the wake; an empty
  /// body gets none). For a download, `didWriteData`, queued ahead of `didFinishDownloadingTo`
  /// as on a device; for an upload, `didSendBodyData`, ahead of the response's calls.
  func reportBodyDone(_ task: SimURLSessionTask, into effects: inout EffectBuffer) {
    let total = task.isDownload ? task.countOfBytesReceived : task.countOfBytesSent
    guard total > 0, lifecycle.state.isRunning, task.session.appSession != nil else { return }
    let step = tasks[task].bytes.reportedProgress(total: total)
    tasks[task].bytes.reported(decile: 10)
    let event: DelegateEvent =
      task.isDownload
      ? .didWriteData(task, bytesWritten: step, total: total)
      : .didSendBodyData(task, bytesSent: step, total: total)
    queueDelegateEvent(event, for: task.session, into: &effects)
  }
}
