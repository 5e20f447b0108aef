/// The questions a session's queue holds for the app (behavior.md, "Delayed requests",
/// "Authentication challenges"): a session holding one is owed a wake even though tasks are
/// outstanding, once per question.
extension DaemonSession {
  /// Holds a `willBeginDelayedRequest` question and still wants a wake for it; `wakesApp` is the
  /// policy's `delayedRequest.wakesApp`.
  func awaitsDelayedRequestAnswer(wakesApp: Bool) -> Bool {
    wakesApp && wantsWake
      && pendingQuestions.contains { event in
        if case .willBeginDelayedRequest = event { return true }
        return false
      }
  }

  /// Holds a challenge still waiting for the app that has not woken it yet [A]. One wake per
  /// challenge: an app that suspends again without taking it (its handler called early, its
  /// session not recreated) is not woken again for it; it waits for a launch or times out.
  func awaitsChallengeAnswer() -> Bool {
    pendingQuestions.contains { event in
      guard let task = Self.liveChallenge(event) else { return false }
      return !task.challenge.wokeApp
    }
  }

  /// A wake for this session began: each challenge it holds has had its wake (noted in the
  /// engine's `tasks`).
  func challengesWokeApp(in tasks: TaskTable) {
    for event in pendingQuestions {
      if let task = Self.liveChallenge(event) { tasks[task].challenge.appWoken() }
    }
  }

  /// The task of a queued challenge still waiting for its answer.
  private static func liveChallenge(_ event: DelegateEvent) -> SimURLSessionTask? {
    guard case .didReceiveChallenge(let task, _, let generation) = event,
      task.machine.generation == generation,
      !task.isFinished, task.challenge.awaitedSpace != nil
    else { return nil }
    return task
  }
}
