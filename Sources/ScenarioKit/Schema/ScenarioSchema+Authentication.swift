import TransferEngine

/// The schema of authentication: a resource's `auth` and a reaction's `answer`/`credential`.
extension ScenarioSchema {
  /// One protection space, or a non-empty array of them.
  static var protectionSpaces: SchemaNode {
    let space = object(
      [
        ("method", enumeration(names(AuthenticationMethod.self))), ("realm", string), ("user", string),
        ("password", string),
      ], required: ["method", "user", "password"])
    return .object([
      (
        "anyOf",
        .array([space, .object([("type", .string("array")), ("items", space), ("minItems", .int(1))])])
      )
    ])
  }

  /// One entry of `app.behavior.didReceiveChallenge`.
  static var challengeAnswer: SchemaNode {
    object(
      [
        ("task", nonEmptyString), ("times", integer(1...1_000_000)),
        ("answer", enumeration(names(ChallengeAnswerName.self))), ("credential", credential),
      ], required: ["answer"])
  }

  static var credential: SchemaNode {
    object([("user", string), ("password", string)], required: ["user", "password"])
  }
}
