import Testing
import TransferEngine

@testable import ScenarioKit

/// A resource's `auth`, the scripted delegate's `didReceiveChallenge` answers, and the
/// `challenge` knobs.
@Suite("Authentication in the format")
struct AuthenticationFormTests {
  static let resource = #"{"url": "https://h/a", "size": 1, "auth": AUTH}"#

  static func scenario(
    auth: String = #"{"method": "basic", "user": "u", "password": "p"}"#, answer: String? = nil
  ) -> String {
    let behavior = answer.map { #", "app": {"behavior": {"didReceiveChallenge": [\#($0)]}}"# } ?? ""
    return #"{"name": "x", "server": {"resources": ["# + resource.replacingOccurrences(of: "AUTH", with: auth)
      + "]}" + behavior + "}"
  }

  @Test("one protection space, or a list in the server's order")
  func spaces() throws {
    let one = try loadScenario(Self.scenario())
    #expect(one.server.resources[0].auth == [ProtectionSpace(method: .basic, user: "u", password: "p")])
    let two = try loadScenario(
      Self.scenario(
        auth:
          #"[{"method": "negotiate", "realm": "Corp", "user": "u", "password": "p"}, {"method": "digest", "user": "u", "password": "p"}]"#
      ))
    #expect(two.server.resources[0].auth.map(\.method) == [.negotiate, .digest])
    #expect(two.server.resources[0].auth[0].realm == "Corp")
    let plain = try loadScenario(
      #"{"name": "x", "server": {"resources": [{"url": "https://h/a", "size": 1}]}}"#)
    #expect(plain.server.resources[0].auth.isEmpty)
    // Without the key the scripted delegate has no challenge method.
    #expect(plain.app.behavior.challengeAnswers == nil)
  }

  @Test("each answer, with the credential useCredential sends, a task pattern and times")
  func answers() throws {
    let cases: [(String, SimAuthChallengeDisposition)] = [
      (
        #""answer": "useCredential", "credential": {"user": "u", "password": "p"}"#,
        .useCredential(SimURLCredential(user: "u", password: "p"))
      ),
      (#""answer": "performDefaultHandling""#, .performDefaultHandling),
      (#""answer": "cancelAuthenticationChallenge""#, .cancelAuthenticationChallenge),
      (#""answer": "rejectProtectionSpace""#, .rejectProtectionSpace),
    ]
    for (fields, answer) in cases {
      let s = try loadScenario(Self.scenario(answer: #"{"task": "a-*", "times": 2, \#(fields)}"#))
      let entry = try #require(s.app.behavior.challengeAnswers?.first)
      #expect(entry.answer == answer)
      #expect(entry.task == "a-*" && entry.times == 2)
      #expect(entry.path == "app.behavior.didReceiveChallenge[0]")
    }
    let none = try loadScenario(#"{"name": "x", "app": {"behavior": {"didReceiveChallenge": []}}}"#)
    #expect(none.app.behavior.challengeAnswers?.isEmpty == true)
  }

  @Test(arguments: [
    (
      scenario(auth: #"{"method": "baisc", "user": "u", "password": "p"}"#),
      "s.json: server.resources[0].auth.method: unknown authentication method 'baisc'; did you mean 'basic'?"
    ),
    (
      scenario(auth: #"{"method": "basic", "user": "u"}"#),
      "s.json: server.resources[0].auth: missing required key 'password' (a string)"
    ),
    (
      scenario(auth: "[]"),
      "s.json: server.resources[0].auth: an empty list offers no protection space; give at least one, or remove 'auth'"
    ),
    (
      scenario(auth: #"[{"method": "basic", "user": "u", "password": "p", "relm": "R"}]"#),
      "s.json: server.resources[0].auth[0]: unknown key 'relm'; did you mean 'realm'?"
    ),
    (
      scenario(answer: #"{"task": "a"}"#),
      "s.json: app.behavior.didReceiveChallenge[0]: missing required key 'answer' (one of useCredential, performDefaultHandling, cancelAuthenticationChallenge, rejectProtectionSpace)"
    ),
    (
      scenario(answer: #"{"answer": "useCredential"}"#),
      "s.json: app.behavior.didReceiveChallenge[0]: missing required key 'credential' (a credential like {\"user\": \"alice\", \"password\": \"s3cret\"}), which 'useCredential' sends"
    ),
    (
      scenario(answer: #"{"answer": "rejectProtectionSpace", "credential": {"user": "u", "password": "p"}}"#),
      "s.json: app.behavior.didReceiveChallenge[0].credential: only 'useCredential' sends a credential; remove 'credential' or answer 'useCredential'"
    ),
    (
      scenario(answer: #"{"answer": "useCrdential"}"#),
      "s.json: app.behavior.didReceiveChallenge[0].answer: unknown challenge answer 'useCrdential'; did you mean 'useCredential'?"
    ),
    (
      scenario(answer: #"{"answer": "useCredential", "credential": {"user": "u"}}"#),
      "s.json: app.behavior.didReceiveChallenge[0].credential: missing required key 'password' (a string)"
    ),
    (
      scenario(answer: #"{"answer": "performDefaultHandling", "times": 0}"#),
      "s.json: app.behavior.didReceiveChallenge[0].times: 0 is out of range; expected how many challenges at most the entry answers"
    ),
    (
      #"{"name": "x", "policy": {"challenge": {"maxFailures": 0}}}"#,
      "s.json: policy.challenge.maxFailures: 0 is out of range; expected a number of wrong credentials from 1 to 100"
    ),
  ])
  func problems(text: String, message: String) {
    #expect(loaderProblems(text) == [message])
  }

  @Test("the challenge knobs are read from policy")
  func knobs() throws {
    let s = try loadScenario(
      #"{"name": "x", "policy": {"challenge": {"answerTimeout": "2m", "maxFailures": 5}}}"#)
    #expect(s.policy.challenge == ChallengePolicy(answerTimeout: .minutes(2), maxFailures: 5))
  }
}
