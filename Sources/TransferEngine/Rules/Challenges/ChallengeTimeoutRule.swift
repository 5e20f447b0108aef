import SimKernel

/// Rule: no answer to a challenge came within `challenge.answerTimeout` (behavior.md,
/// "Authentication challenges"): the task gives up on it, is taken off its connection and fails
/// with -1001, with resume data when it can resume [S]. A challenge answered meanwhile changes
/// nothing.
enum ChallengeTimeoutRule {
  static func apply(_ task: SimURLSessionTask, engine: Engine, into effects: inout EffectBuffer) {
    guard task.challenge.awaitedSpace != nil else { return }
    _ = engine.tasks[task].challenge.answered()
    engine.tasks[task].challenge.gaveUp()
    effects.append(
      .trace(
        .taskChallengeTimedOut,
        [TraceField("task", .string(task.name)), TraceField("session", .string(task.session.identifier))]))
    FailTaskRule.withdrawAndFail(task, code: .timedOut, engine: engine, into: &effects)
    effects.append(.rescheduleLinks)
  }
}
