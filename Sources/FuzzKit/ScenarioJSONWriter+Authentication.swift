import ScenarioKit
import TransferEngine

/// A resource's `auth` and the scripted delegate's challenge answers, as the loader reads them.
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

  static func challengeAnswer(_ entry: ChallengeAnswer) -> JSONNode {
    var fields: [(String, JSONNode)] = []
    if let task = entry.task { fields.append(("task", .string(task))) }
    if let times = entry.times { fields.append(("times", int(Int64(times)))) }
    fields.append(("answer", .string(entry.answer.name)))
    if case .useCredential(let credential) = entry.answer {
      fields.append(
        (
          "credential",
          .object([("user", .string(credential.user)), ("password", .string(credential.password))])
        ))
    }
    return .object(fields)
  }
}
