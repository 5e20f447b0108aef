import SimKernel
import TransferEngine

/// A resource's `auth` (the protection spaces its server challenges in) and the scripted
/// delegate's answers to challenges (`app.behavior.didReceiveChallenge`).
extension ValueType where T == [ProtectionSpace] {
  static let spaceNoun =
    "a protection space like {\"method\": \"basic\", \"realm\": \"Podcasts\", \"user\": \"alice\", \"password\": \"s3cret\"}"

  /// One protection space, or a non-empty array of them in the order the server offers them.
  static var protectionSpaces: ValueType<[ProtectionSpace]> {
    let expected = "\(spaceNoun), or an array of them in the order the server offers them"
    return ValueType(expected: expected) { v, path, ctx in
      guard let items = v.array else {
        return ValueType<ProtectionSpace>.object(spaceNoun, space).decode(v, path, ctx).map { [$0] }
      }
      if items.isEmpty {
        return nilAfter(
          ctx.invalid(
            path, v, "an empty list offers no protection space; give at least one, or remove 'auth'"))
      }
      return ValueType<[ProtectionSpace]>.objects(spaceNoun, space).decode(v, path, ctx)
    }
  }

  private static func space(_ r: inout ObjectReader) -> ProtectionSpace? {
    let method: AuthenticationMethod? = r.required("method", .enumeration("authentication method"))
    let realm = r.optional("realm", .string)
    let user = r.required("user", .string)
    let password = r.required("password", .string)
    guard let method, let user, let password else { return nil }
    return ProtectionSpace(method: method, realm: realm ?? "", user: user, password: password)
  }
}

/// The answers a scripted app can give, by their `URLSession.AuthChallengeDisposition` names.
enum ChallengeAnswerName: String, CaseIterable {
  case useCredential, performDefaultHandling, cancelAuthenticationChallenge, rejectProtectionSpace
}

enum ChallengeDecoding {
  static let noun =
    "a challenge answer like {\"task\": \"report-*\", \"answer\": \"useCredential\", \"credential\": {\"user\": \"alice\", \"password\": \"s3cret\"}}"
  static let credentialNoun = "a credential like {\"user\": \"alice\", \"password\": \"s3cret\"}"

  /// One entry of `app.behavior.didReceiveChallenge`: optional `task` pattern and `times`, the
  /// `answer`, and the `credential` that `useCredential` (only) sends.
  static func entry(_ r: inout ObjectReader) -> ChallengeAnswer? {
    let task = r.optional("task", .name("a task name pattern"))
    let times = r.optional("times", .int(1...1_000_000, "how many challenges at most the entry answers"))
    let name: ChallengeAnswerName? = r.required("answer", .enumeration("challenge answer"))
    let credential = r.optional("credential", .object(credentialNoun, credential))
    let answer: SimAuthChallengeDisposition?
    switch name {
    case .useCredential:
      if credential == nil, !r.has("credential") {
        r.context.report(
          .missingKey, r.path, at: r.value.position,
          "missing required key 'credential' (\(credentialNoun)), which 'useCredential' sends")
      }
      answer = credential.map { .useCredential($0) }
    case .performDefaultHandling, .cancelAuthenticationChallenge, .rejectProtectionSpace:
      if let v = r.raw("credential") {
        r.context.invalid(
          JSONPath.member(r.path, "credential"), v,
          "only 'useCredential' sends a credential; remove 'credential' or answer 'useCredential'")
        return nil
      }
      switch name {
      case .performDefaultHandling: answer = .performDefaultHandling
      case .cancelAuthenticationChallenge: answer = .cancelAuthenticationChallenge
      default: answer = .rejectProtectionSpace
      }
    case nil: answer = nil
    }
    guard let answer else { return nil }
    return ChallengeAnswer(task: task, times: times, answer: answer, path: r.path)
  }

  private static func credential(_ r: inout ObjectReader) -> SimURLCredential? {
    let user = r.required("user", .string)
    let password = r.required("password", .string)
    guard let user, let password else { return nil }
    return SimURLCredential(user: user, password: password)
  }
}
