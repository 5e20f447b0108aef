import SimKernel

/// Rule: the app answers an authentication challenge (behavior.md, "Authentication
/// challenges"): present a credential (one more round trip before the server's verdict), default
/// handling (the 401 is the response), cancel the task (-999), or reject the protection space
/// (the next space is challenged, or the 401 when none is left).
///
/// The question is put to the attempt that met it only (`asks`); an answer for an attempt that
/// ended since (the app cancelled the task meanwhile) changes nothing.
enum ChallengeAnsweredRule {
  /// Whether the queued challenge of attempt `generation` is still to be put to the app.
  static func asks(_ task: SimURLSessionTask, generation: UInt32) -> Bool {
    task.machine.generation == generation && !task.isFinished && task.challenge.awaitedSpace != nil
  }

  /// Carries out `answer` to the challenge of attempt `generation` and appends what follows.
  static func apply(
    _ task: SimURLSessionTask, _ answer: SimAuthChallengeDisposition, generation: UInt32, engine: Engine,
    into effects: inout EffectBuffer
  ) {
    guard task.machine.generation == generation, !task.isFinished, task.machine.isActive,
      let space = task.challenge.awaitedSpace
    else { return }
    if let timer = engine.tasks[task].challenge.answered() { effects.append(.cancelEvent(timer)) }
    var fields = [TraceField("task", .string(task.name)), TraceField("disposition", .string(answer.name))]
    if case .useCredential(let credential) = answer {
      fields.append(TraceField("user", .string(credential.user)))
    }
    effects.append(.trace(.taskChallengeAnswered, fields))
    let spaces = engine.links.server.resource(task.currentURL)?.auth ?? []
    switch answer {
    case .useCredential(let credential):
      let accepted = spaces[safe: space]?.accepts(credential) ?? false
      engine.tasks[task].challenge.presenting(space: space, accepted: accepted)
      effects.append(
        .schedule(
          .connected(uid: task.uid, generation: generation), at: engine.now + engine.links.network.latency * 2
        ))
    case .performDefaultHandling:
      engine.respondUnauthorized(task, into: &effects)
    case .cancelAuthenticationChallenge:
      engine.tasks[task].challenge.gaveUp()
      effects.append(
        .cancelTask(uid: task.uid, produceResumeData: false, reason: nil, admitting: true))
    case .rejectProtectionSpace:
      if space + 1 < spaces.count {
        engine.raiseChallenge(task, space: space + 1, into: &effects)
      } else {
        engine.respondUnauthorized(task, into: &effects)
      }
    }
  }
}
