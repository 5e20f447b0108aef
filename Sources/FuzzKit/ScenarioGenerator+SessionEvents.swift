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
    // A delegate that implements willBeginDelayedRequest (the timeline's tasks often have a
    // start date), with one or two answers, and sometimes a system that does not wake it.
    if extraChance(0.4) {
      var answers: [DelayedRequestAnswer] = []
      for j in 0..<extraInt(1...3) {
        let disposition = [DelayedRequestAnswer.Disposition.continueLoading, .useNewRequest, .cancel][
          extraInt(0...2)]
        let url =
          disposition == .useNewRequest && !downloads.isEmpty
          ? downloads[extraInt(0...downloads.count - 1)].string : nil
        answers.append(
          DelayedRequestAnswer(
            task: extraChance(0.5) ? "t*" : nil,
            answer: url == nil && disposition == .useNewRequest ? .cancel : disposition,
            url: url, path: "app.behavior.willBeginDelayedRequest[\(j)]"))
      }
      behavior.delayedRequestAnswers = answers
      if extraChance(0.3) { policy.delayedRequest.wakesApp = false }
    }
  }

  /// Upload targets that speak the resumable upload draft, and sometimes a device that does not
  /// (iOS 16 and earlier).
  mutating func addResumableUploads(
    policy: inout Policy, server: inout ServerModel, timeline: inout [TimelineEntry]
  ) {
    for i in server.resources.indices where server.resources[i].method != "GET" && extraChance(0.5) {
      server.resources[i].resumableUploads = true
    }
    if extraChance(0.15) { policy.resumableUploads = false }
    // Some uploads large enough (20-200 MB) for network changes and faults to cut them part-way.
    for i in timeline.indices {
      guard case .app(.upload(let request, let from, _)) = timeline[i].action, extraChance(0.3) else {
        continue
      }
      let size = Int64(extraInt(20...200)) * 1_000_000
      timeline[i].action = .app(.upload(request, from: from, size: size))
    }
  }
}
