import SimKernel

/// Rule: a transfer's connection broke (network lost, interface changed, server dropped it,
/// request idle timeout, restart) (behavior.md, "Interruptions and retries").
///
/// The task leaves its link and `task.interrupted` is traced with the bytes it had moved. A
/// default session's task frees its connection and fails with -1005 (`networkConnectionLost`),
/// with resume data when it can resume. A background task keeps what an upload can resume from,
/// then waits out the retry backoff (doubling per attempt, capped by the policy) and frees its
/// connection; with `retryNow` (an interface change to an allowed interface, a restart) it skips
/// the backoff and keeps its claim: its slot is not offered to a waiting task, and the caller
/// queues it again ahead of them. A task not running is left alone.
enum InterruptRule {
  static func apply(
    _ task: SimURLSessionTask, reason: String, retryNow: Bool, engine: Engine,
    into effects: inout EffectBuffer
  ) {
    guard task.machine.isActive else { return }
    engine.detach(task)
    effects.append(
      .trace(
        .taskInterrupted,
        [
          TraceField("task", .string(task.name)), TraceField("reason", .string(reason)),
          TraceField("bytes", .int(task.fetchesBody ? task.countOfBytesReceived : task.countOfBytesSent)),
        ]))
    if task.session.configuration.kind == .default {
      AdmissionPassRule.releaseConnection(of: task, admitting: true, engine: engine, into: &effects)
      FailTaskRule.apply(
        task, SimURLError(.networkConnectionLost, resume: engine.makeResumeData(task)),
        freeingConnection: false,
        engine: engine, into: &effects)
      return
    }
    if !task.fetchesBody { engine.uploadStopped(task, into: &effects) }
    if retryNow {
      switch engine.tasks[task].machine.retryOnNewInterface() {
      case .requeueAhead:
        AdmissionPassRule.releaseConnection(of: task, admitting: false, engine: engine, into: &effects)
        return
      }
    }
    switch engine.tasks[task].machine.interrupted(at: engine.now, retry: engine.policy.retry) {
    case .scheduleRetry(let wait):
      effects.append(
        .schedule(.retry(uid: task.uid, generation: task.machine.generation), at: engine.now + wait))
    }
    AdmissionPassRule.releaseConnection(of: task, admitting: true, engine: engine, into: &effects)
  }
}
