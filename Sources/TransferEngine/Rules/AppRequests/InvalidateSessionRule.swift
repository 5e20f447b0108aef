import SimKernel

/// Rule: the app calls `finishTasksAndInvalidate()` or `invalidateAndCancel()` (behavior.md,
/// "Sessions").
///
/// A second call does nothing. The call is traced; `invalidateAndCancel` cancels every
/// unfinished task (-999, no resume data, freeing no connection for another task). Once those
/// cancellations are done (`tasksCancelled`), a session with tasks still outstanding waits for
/// the last one before `didBecomeInvalidWithError`; one with none queues it now, behind the
/// delegate events already queued.
enum InvalidateSessionRule {
  /// The first half, before the cancellations run: true when the entry must go on with
  /// `tasksCancelled` (the session was not invalidated yet).
  static func apply(
    _ session: SimURLSession, cancelTasks: Bool, engine: Engine, into effects: inout EffectBuffer
  ) -> Bool {
    guard !session.isInvalidated else { return false }
    effects.append(
      .trace(
        .sessionInvalidated,
        [TraceField("session", .string(session.identifier)), TraceField("cancelTasks", .bool(cancelTasks))]))
    if cancelTasks {
      for task in session.record.unfinishedTasks() where !task.isFinished {
        effects.append(.cancelTask(uid: task.uid, produceResumeData: false, reason: nil, admitting: false))
      }
    }
    return true
  }

  /// The second half, once the cancellations `apply` asked for are done: the session is
  /// invalidated, and `didBecomeInvalidWithError` queued unless tasks are still outstanding.
  static func tasksCancelled(_ session: SimURLSession, engine: Engine, into effects: inout EffectBuffer) {
    let waits = session.record.outstanding > 0
    session.beginInvalidation(waitsForTasks: waits)
    if !waits { engine.queueInvalidation(session, into: &effects) }
  }
}
