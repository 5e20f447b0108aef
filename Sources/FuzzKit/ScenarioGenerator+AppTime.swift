import ScenarioKit
import SimKernel
import TransferEngine

/// The generator's draws for the app's own time (a reaction's `takes`), from the `extra` stream,
/// drawn after every other behaviour so that the earlier draws of a seed stay as they were.
extension ScenarioGenerator {
  mutating func addAppTime(behavior: inout AppBehavior) {
    guard extraChance(0.3) else { return }
    let events: [Reaction.Event] = [
      .didFinishDownloading, .didComplete, .handleEvents, .didFinishEvents, .didLaunch,
    ]
    for _ in 0..<extraInt(1...2) {
      let i = behavior.reactions.count
      let event = events[extraInt(0...events.count - 1)]
      let perTask = event == .didComplete || event == .didFinishDownloading
      // 1 s to 1 min: a few such callbacks fit a wake's 30 s, more do not.
      behavior.reactions.append(
        Reaction(
          event: event, task: perTask && extraChance(0.5) ? "t*" : nil, actions: [],
          path: "app.behavior.on[\(i)]", times: extraChance(0.3) ? extraInt(1...3) : nil,
          takes: .seconds(Int64(extraInt(1...60)))))
    }
  }
}
