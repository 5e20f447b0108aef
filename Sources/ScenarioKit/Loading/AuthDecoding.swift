import SimKernel
import TransferEngine

/// A resource's `auth` (the protection spaces its server challenges in) and a
/// `didReceiveChallenge` reaction's `answer` and `credential`.
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
  /// A reaction's `answer` (with `credential` for `useCredential`): required for a
  /// `didReceiveChallenge` reaction, an error on any other. Returns nil when absent or invalid.
  static func answer(_ r: inout ObjectReader, event: Reaction.Event?) -> SimAuthChallengeDisposition? {
    let name: ChallengeAnswerName? =
      event == .didReceiveChallenge
      ? r.required("answer", .enumeration("challenge answer"))
      : r.optional("answer", .enumeration("challenge answer"))
    let credential = r.optional(
      "credential", .object("a credential like {\"user\": \"alice\", \"password\": \"s3cret\"}", credential))
    if let event, event != .didReceiveChallenge {
      for key in ["answer", "credential"] {
        guard let v = r.raw(key) else { continue }
        r.context.invalid(
          JSONPath.member(r.path, key), v,
          "'\(key)' answers an authentication challenge; only a 'didReceiveChallenge' reaction has one")
      }
      return nil
    }
    switch name {
    case .useCredential:
      guard let credential else {
        if !r.has("credential") {
          r.context.report(
            .missingKey, r.path, at: r.value.position,
            "missing required key 'credential' (a credential like {\"user\": \"alice\", \"password\": \"s3cret\"}), "
              + "which 'useCredential' sends")
        }
        return nil
      }
      return .useCredential(credential)
    case .performDefaultHandling, .cancelAuthenticationChallenge, .rejectProtectionSpace:
      if let v = r.raw("credential") {
        r.context.invalid(
          JSONPath.member(r.path, "credential"), v,
          "only 'useCredential' sends a credential; remove 'credential' or answer 'useCredential'")
        return nil
      }
      switch name {
      case .performDefaultHandling: return .performDefaultHandling
      case .cancelAuthenticationChallenge: return .cancelAuthenticationChallenge
      default: return .rejectProtectionSpace
      }
    case nil: return nil
    }
  }

  private static func credential(_ r: inout ObjectReader) -> SimURLCredential? {
    let user = r.required("user", .string)
    let password = r.required("password", .string)
    guard let user, let password else { return nil }
    return SimURLCredential(user: user, password: password)
  }
}
