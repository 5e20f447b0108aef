import Testing
import TransferEngine

@testable import ScenarioKit

/// A resource's `auth`, a `didReceiveChallenge` reaction's `answer`, and the `challenge` knobs.
@Suite("Authentication in the format")
struct AuthenticationFormTests {
  static let resource = #"{"url": "https://h/a", "size": 1, "auth": AUTH}"#

  static func scenario(
    auth: String = #"{"method": "basic", "user": "u", "password": "p"}"#, reaction: String? = nil
  )
    -> String
  {
    let on = reaction.map { #", "app": {"behavior": {"on": [\#($0)]}}"# } ?? ""
    return #"{"name": "x", "server": {"resources": ["# + resource.replacingOccurrences(of: "AUTH", with: auth)
      + "]}" + on + "}"
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
    #expect(
      try loadScenario(#"{"name": "x", "server": {"resources": [{"url": "https://h/a", "size": 1}]}}"#)
        .server.resources[0].auth.isEmpty)
  }

  @Test("each answer, with the credential useCredential sends")
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
      let s = try loadScenario(Self.scenario(reaction: #"{"event": "didReceiveChallenge", \#(fields)}"#))
      #expect(s.app.behavior.reactions[0].answer == answer)
      #expect(s.app.behavior.reactions[0].actions.isEmpty)
    }
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
      scenario(reaction: #"{"event": "didReceiveChallenge"}"#),
      "s.json: app.behavior.on[0]: missing required key 'answer' (one of useCredential, performDefaultHandling, cancelAuthenticationChallenge, rejectProtectionSpace)"
    ),
    (
      scenario(reaction: #"{"event": "didReceiveChallenge", "answer": "useCredential"}"#),
      "s.json: app.behavior.on[0]: missing required key 'credential' (a credential like {\"user\": \"alice\", \"password\": \"s3cret\"}), which 'useCredential' sends"
    ),
    (
      scenario(
        reaction:
          #"{"event": "didReceiveChallenge", "answer": "rejectProtectionSpace", "credential": {"user": "u", "password": "p"}}"#
      ),
      "s.json: app.behavior.on[0].credential: only 'useCredential' sends a credential; remove 'credential' or answer 'useCredential'"
    ),
    (
      scenario(reaction: #"{"event": "didReceiveChallenge", "answer": "useCrdential"}"#),
      "s.json: app.behavior.on[0].answer: unknown challenge answer 'useCrdential'; did you mean 'useCredential'?"
    ),
    (
      scenario(
        reaction:
          #"{"event": "didComplete", "answer": "performDefaultHandling", "do": [{"do": "beginBackgroundTask", "name": "b"}]}"#
      ),
      "s.json: app.behavior.on[0].answer: 'answer' answers an authentication challenge; only a 'didReceiveChallenge' reaction has one"
    ),
    (
      scenario(reaction: #"{"event": "didComplete"}"#),
      "s.json: app.behavior.on[0]: missing required key 'do' (an array of an app action like {\"do\": \"download\", ...})"
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
