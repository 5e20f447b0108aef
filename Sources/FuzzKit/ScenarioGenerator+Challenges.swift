import ScenarioKit
import SimKernel
import TransferEngine

/// Authentication challenges in generated scenarios, from a stream of their own so that adding
/// them leaves every earlier draw of a seed as it was.
extension ScenarioGenerator {
  static let account = SimURLCredential(user: "user", password: "secret")

  /// Protects some resources, tunes the challenge knobs, and gives the scripted delegate
  /// challenge answers of every kind (right and wrong credentials among them), or none.
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
    // Sometimes a delegate without the methods (nil): URLSession then answers by default.
    guard draw.nextUnit() < 0.8 else { return }
    behavior.challengeAnswers = (0..<draw.uniform(0...3)).map { i in
      ChallengeAnswer(
        task: draw.nextUnit() < 0.3 ? taskNames.first : nil,
        times: draw.nextUnit() < 0.4 ? draw.uniform(1...3) : nil, answer: draw.choice(answers),
        path: "app.behavior.didReceiveChallenge[\(i)]")
    }
  }
}
