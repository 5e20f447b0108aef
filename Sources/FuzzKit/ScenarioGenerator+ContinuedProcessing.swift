import ScenarioKit
import SimKernel
import TransferEngine

/// The generator's draws for `BGContinuedProcessingTask`, from a stream of their own so that
/// every earlier draw of a seed stays as it was.
extension ScenarioGenerator {
  mutating func addContinuedProcessing(
    policy: inout Policy, behavior: inout AppBehavior, timeline: inout [TimelineEntry]
  ) {
    var draw = SeededGenerator(seed: seed ^ 0xC0A7_1D26_0000_0000)
    guard draw.nextUnit() < 0.3 else { return }
    if draw.nextUnit() < 0.3 { policy.continuedProcessing.maxRunning = draw.uniform(1...3) }
    if draw.nextUnit() < 0.3 {
      policy.continuedProcessing.progressWindow = .seconds(Int64(draw.uniform(1...120)))
    }
    var added: [(SimTime, TimelineAction)] = []
    var count = 0
    for entry in timeline where entry.action.isLaunch && draw.nextUnit() < 0.5 {
      for _ in 0..<draw.uniform(1...2) {
        count += 1
        let identifier = "cp\(count)"
        // At the launch itself, the app is in the foreground; later app actions could find it
        // suspended, so the app's progress and completion come from reactions.
        let at = entry.at
        let strategy: ContinuedProcessingStrategy = draw.nextUnit() < 0.7 ? .queue : .fail
        added.append(
          (
            at,
            .app(
              .submitContinuedProcessing(
                identifier: identifier, title: "Job \(count)", subtitle: "", strategy: strategy))
          ))
        var actions: [AppAction] = []
        if draw.nextUnit() < 0.6 {
          actions.append(.reportContinuedProgress(identifier: identifier, add: 1, total: nil))
        }
        if draw.nextUnit() < 0.3 {
          actions.append(.completeContinuedProcessing(identifier: identifier, success: true))
        }
        if !actions.isEmpty {
          let i = behavior.reactions.count
          behavior.reactions.append(
            Reaction(
              event: draw.nextUnit() < 0.5 ? .didFinishDownloading : .didComplete, task: nil,
              actions: actions,
              path: "app.behavior.on[\(i)]"))
        }
        if draw.nextUnit() < 0.3 {
          added.append(
            (at + .seconds(Int64(draw.uniform(1...300))), .cancelContinuedProcessing(identifier: identifier)))
        }
      }
    }
    // Some requests' launch handlers report their first progress (after the draws above, so
    // those stay what they were for every seed).
    for k in 1...max(1, count) where count > 0 && draw.nextUnit() < 0.3 {
      let identifier = "cp\(k)"
      let i = behavior.reactions.count
      behavior.reactions.append(
        Reaction(
          event: .continuedProcessingStarted, task: identifier,
          actions: [
            .reportContinuedProgress(identifier: identifier, add: Int64(draw.uniform(0...1)), total: 4)
          ],
          path: "app.behavior.on[\(i)]"))
    }
    guard !added.isEmpty else { return }
    let all = timeline.map { ($0.at, $0.action) } + added.filter { $0.0.sinceStart <= duration }
    // Stable by time: an added entry comes after the entries of the same instant.
    timeline = all.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }
      .enumerated().map { i, e in TimelineEntry(at: e.element.0, action: e.element.1, path: "timeline[\(i)]")
      }
  }
}

extension TimelineAction {
  fileprivate var isLaunch: Bool {
    if case .launch = self { return true }
    return false
  }
}
