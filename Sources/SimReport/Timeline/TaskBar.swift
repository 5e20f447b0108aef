import SimKernel
import TransferEngine

/// One task's life on the timeline: a row of phase segments from `task.created` to the end.
///
/// Phases are `waiting` (with the reason from `task.deferred`, so the report answers the
/// question behavior.md asks of every run: *why* is this task not transferring?),
/// `transferring`, then a final `done`, `failed` or `cancelled` that holds to the end of the run.
struct TaskBar: Equatable {
  /// One stretch of a task in one phase.
  struct Segment: Equatable {
    var start: SimTime
    var end: SimTime
    /// `waiting`, `transferring`, `done`, `failed` or `cancelled`.
    var phase: String
    /// Why a waiting task waits (`earliestBegin`, `rateLimiter`, ...); why a failed one failed.
    var reason: String?
    var label: String
    var detail: String
  }

  /// The scenario's name for the task.
  var name: String
  var segments: [Segment]

  /// The bars of every task in the trace, in order of creation.
  /// - Complexity: O(n) in the number of events.
  static func bars(from events: [TraceEvent], end: SimTime) -> [TaskBar] {
    var order: [String] = []
    var changes: [String: [Segment]] = [:]
    for event in events where event.kind.hasPrefix("task.") {
      guard let name = event["task"]?.description, let next = phase(after: event) else { continue }
      if changes[name] == nil { order.append(name) }
      var list = changes[name, default: []]
      list.removeAll { $0.start >= event.time }
      list.append(next)
      changes[name] = list
    }
    return order.map { name in
      let list = changes[name] ?? []
      var segments: [Segment] = []
      // Zero-length segments are kept: a task that finishes as the run ends still shows `done`.
      for (index, change) in list.enumerated() {
        var segment = change
        segment.end = index + 1 < list.count ? list[index + 1].start : max(end, change.start)
        segments.append(segment)
      }
      return TaskBar(name: name, segments: segments)
    }
  }

  /// The segment a `task.*` event opens, or nil for events that do not change the phase
  /// (redirects, restarts from zero).
  static func phase(after event: TraceEvent) -> Segment? {
    let t = event.time
    let name = event["task"]?.description ?? "?"
    let reason = event["reason"]?.description
    func segment(_ phase: String, _ reason: String?, _ label: String, _ what: String) -> Segment {
      Segment(
        start: t, end: t, phase: phase, reason: reason, label: label,
        detail: "\(name): \(what) from \(t) — \(TimelineModel.describe(event))")
    }
    switch event.traceKind {
    case .taskCreated?: return segment("waiting", "created", "created", "created, not resumed")
    case .taskResume?: return segment("waiting", "queued", "queued", "resumed, waiting for the daemon")
    case .taskDeferred?:
      let why = reason ?? "unknown"
      var label = why
      if let until = event["until"] { label += " until \(until)" }
      if let missing = event["missing"] { label += " (needs \(missing))" }
      return segment("waiting", why, label, "waiting: \(label)")
    case .taskPaused?: return segment("waiting", reason ?? "paused", "paused", "paused (\(reason ?? "?"))")
    case .taskSuspend?: return segment("waiting", "suspendedByApp", "suspended", "suspended by the app")
    case .taskInterrupted?:
      return segment("waiting", "retryBackoff", "interrupted", "interrupted (\(reason ?? "?")), backing off")
    case .taskStarted?: return segment("transferring", nil, "transferring", "transferring")
    case .taskRetry?:
      let attempt = event["attempt"].map { "attempt \($0)" } ?? "retry"
      return segment("transferring", nil, attempt, "transferring, \(attempt)")
    case .taskFinished?:
      let status = event["status"].map { " \($0)" } ?? ""
      return segment("done", nil, "done" + status, "finished" + status)
    case .taskFailed?:
      let error = event["error"]?.description ?? "error"
      return segment("failed", error, "failed: \(error)", "failed with \(error)")
    case .taskLost?: return segment("failed", reason ?? "lost", "lost", "lost (\(reason ?? "?"))")
    case .taskCancelled?:
      let why = reason.map { " (\($0))" } ?? ""
      return segment("cancelled", reason, "cancelled" + why, "cancelled" + why)
    default: return nil
    }
  }
}
