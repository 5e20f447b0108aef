import SimKernel

/// Rule: a transfer stayed idle past `timeoutIntervalForRequest` (behavior.md, "Stalled servers
/// and the request idle timeout").
///
/// A stalled transfer of a background session is interrupted (`requestTimeout`) and retries
/// after its backoff; a default session's is taken off its link and fails with -1001, freeing
/// its connection; either way the links are re-armed. A default transfer paused with its
/// suspended app fails with -1001 (it holds no connection). Any other state ignores the timer.
enum RequestTimeoutRule {
  static func apply(_ task: SimURLSessionTask, engine: Engine, into effects: inout EffectBuffer) {
    switch task.machine.state {
    case .stalled:
      if task.session.configuration.kind == .background {
        effects.append(.interrupt(uid: task.uid, reason: "requestTimeout", retryNow: false))
      } else {
        engine.detach(task)
        fail(task, freeingConnection: true, engine: engine, into: &effects)
      }
      effects.append(.rescheduleLinks)
    case .paused:
      fail(task, freeingConnection: false, engine: engine, into: &effects)
    default:
      return
    }
  }

  /// Fails the task, already off its link, with -1001, with resume data when it can resume.
  private static func fail(
    _ task: SimURLSessionTask, freeingConnection: Bool, engine: Engine, into effects: inout EffectBuffer
  ) {
    FailTaskRule.apply(
      task, SimURLError(.timedOut, resume: engine.makeResumeData(task)), freeingConnection: freeingConnection,
      engine: engine, into: &effects)
  }
}
