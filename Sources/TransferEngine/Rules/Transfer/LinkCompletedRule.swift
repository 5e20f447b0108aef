import SimKernel

/// Rule: a link direction's next flow finished (behavior.md, "Bandwidth sharing").
///
/// Every flow of the direction whose bytes are all moved leaves it: a download's or data task's
/// body, or an upload's response body, completes the task (`.finish`); an upload's body on the
/// uplink brings its response (`Engine.uploadBodyArrived`). Then the links are re-armed at the
/// new shares.
enum LinkCompletedRule {
  static func apply(up: Bool, engine: Engine, into effects: inout EffectBuffer) {
    for uid in engine.links.popFinished(up: up, now: engine.now) {
      let task = engine.daemon.task(uid)
      engine.tasks[task].bytes.flowFinished()
      if up {
        engine.uploadBodyArrived(task, into: &effects)
      } else {
        engine.tasks[task].bytes.responseReceived(isDownload: task.fetchesBody)
        effects.append(.finish(uid: uid))
      }
    }
    engine.rescheduleLinks(after: &effects)
  }
}
