import TransferEngine

/// A resource's `auth` and a challenge reaction's `answer`, written as the loader reads them.
extension ScenarioJSONWriter {
  static func auth(_ spaces: [ProtectionSpace]) -> JSONNode {
    .array(
      spaces.map { space in
        .object([
          ("method", .string(space.method.rawValue)), ("realm", .string(space.realm)),
          ("user", .string(space.user)), ("password", .string(space.password)),
        ])
      })
  }

  static func answerFields(_ answer: SimAuthChallengeDisposition) -> [(String, JSONNode)] {
    var fields: [(String, JSONNode)] = [("answer", .string(answer.name))]
    if case .useCredential(let credential) = answer {
      fields.append(
        (
          "credential",
          .object([("user", .string(credential.user)), ("password", .string(credential.password))])
        ))
    }
    return fields
  }
}
