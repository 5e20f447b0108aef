import ScenarioKit
import SimKernel
import TransferEngine

/// The generator's draws for `didBecomeInvalid` reactions, `willBeginDelayedRequest` answers and
/// resumable uploads, all from the `extra` stream.
extension ScenarioGenerator {
  mutating func addSessionAndRequestBehaviours(policy: inout Policy, behavior: inout AppBehavior) {
    // An app that makes its session again when an invalidation completes, and starts a task in it.
    if extraChance(0.15), !downloads.isEmpty {
      let i = behavior.reactions.count
      let session = sessions[extraInt(0...sessions.count - 1)].identifier
      let url = downloads[extraInt(0...downloads.count - 1)].string
      behavior.reactions.append(
        Reaction(
          event: .didBecomeInvalid, task: nil,
          actions: [.download(TaskRequest(session: session, url: url, name: "inv-{n}"))],
          path: "app.behavior.on[\(i)]", times: extraChance(0.5) ? nil : 1))
    }
  }
}
