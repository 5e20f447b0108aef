import ScenarioKit
import SimKernel
import TransferEngine

/// Authentication challenges in generated scenarios, from a stream of their own so that adding
/// them leaves every earlier draw of a seed as it was.
extension ScenarioGenerator {
  static let account = SimURLCredential(user: "user", password: "secret")

  /// Protects some resources, tunes the challenge knobs, and adds `didReceiveChallenge`
  /// reactions with every kind of answer (right and wrong credentials among them).
  mutating func addChallenges(server: inout ServerModel, policy: inout Policy, behavior: inout AppBehavior) {
    var draw = SeededGenerator(seed: seed ^ 0xC4A1_1E46_0000_0000)
    guard draw.nextUnit() < 0.3, !server.resources.isEmpty else { return }
    for _ in 0..<draw.uniform(1...2) {
      let i = draw.uniform(0...(server.resources.count - 1))
      server.resources[i].auth = (0..<draw.uniform(1...2)).map { _ in
        ProtectionSpace(
          method: draw.choice(AuthenticationMethod.allCases), realm: draw.choice(["", "Files"]),
          user: Self.account.user, password: Self.account.password)
      }
    }
    if draw.nextUnit() < 0.2 { policy.challenge.answerTimeout = .seconds(Int64(draw.uniform(0...300))) }
    if draw.nextUnit() < 0.2 { policy.challenge.maxFailures = draw.uniform(1...5) }
    let answers: [SimAuthChallengeDisposition] = [
      .useCredential(Self.account), .useCredential(SimURLCredential(user: "user", password: "wrong")),
      .performDefaultHandling, .cancelAuthenticationChallenge, .rejectProtectionSpace,
    ]
    for _ in 0..<draw.uniform(0...3) {
      let i = behavior.reactions.count
      var actions: [AppAction] = []
      // Cancelling the challenged task from its own challenge: the answer then changes nothing.
      if draw.nextUnit() < 0.15 {
        actions.append(.cancel(task: "{task}", produceResumeData: draw.nextUnit() < 0.5))
      }
      behavior.reactions.append(
        Reaction(
          event: .didReceiveChallenge, task: draw.nextUnit() < 0.3 ? taskNames.first : nil, actions: actions,
          path: "app.behavior.on[\(i)]", times: draw.nextUnit() < 0.4 ? draw.uniform(1...3) : nil,
          answer: draw.choice(answers)))
    }
  }
}
