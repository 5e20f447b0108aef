import SimKernel
import TransferEngine

/// One task's life on the timeline: a row of phase segments from `task.created` to the end.
///
/// Phases are `waiting` (with the reason from `task.deferred`, so the report answers the
/// question behavior.md asks of every run: *why* is this task not transferring?),
/// `transferring`, then a final `done`, `failed` or `cancelled` that holds to the end of the run.
/// A final phase is drawn hatched while the task has ended in the daemon but the app has not
/// been told (`delegate.didComplete`), and solid once it has: a download that finished at 1 m
/// but reached a force-quit app only at 9 h must not look delivered at 1 m.
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
    /// What the bytes were at this step: where an attempt started (`from 20MB`), where it was
    /// cut off, what it threw away, what the task ended with; nil when nothing is known.
    var bytes: String? = nil
    /// For a final phase: whether the app has been told (`delegate.didComplete`); nil otherwise.
    var delivered: Bool? = nil
  }

  /// The scenario's name for the task.
  var name: String
  var segments: [Segment]

  /// The phases a task ends in.
  static let endings: Set<String> = ["done", "failed", "cancelled"]

  /// The bars of every task in the trace, in order of creation.
  /// - Complexity: O(n) in the number of events.
  static func bars(from events: [TraceEvent], end: SimTime) -> [TaskBar] {
    // Tasks by their names' bytes, as the run tells them apart.
    var order: [WrittenKey] = []
    var changes: [WrittenKey: [Segment]] = [:]
    /// Bytes the task's current attempt had reached, from its progress events.
    var reached: [WrittenKey: Int64] = [:]
    for event in events where event.kind.hasPrefix("task.") || event.kind.hasPrefix("delegate.") {
      guard let text = event["task"]?.description else { continue }
      let name = WrittenKey(text)
      // Each list is changed in place: a copy taken out and put back would copy the whole list
      // at every event of a task that changes phase many times.
      if var next = phase(after: event) {
        if changes[name] == nil { order.append(name) }
        next.bytes = bytes(at: event, reached: reached[name] ?? 0)
        // A phase that began at this instant gives way (trace times never go back, so only the
        // latest can have).
        while let latest = changes[name]?.last, latest.start >= event.time { changes[name]!.removeLast() }
        changes[name, default: []].append(next)
      } else if changes[name] != nil, event.is(.delegateDidComplete) {
        deliver(&changes[name]!, at: event)
      } else if let last = changes[name]?.indices.last {
        annotate(&changes[name]![last], with: event)
      }
      reached[name] = progress(after: event, before: reached[name] ?? 0)
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
      return TaskBar(name: name.text, segments: segments)
    }
  }

  /// The bytes the task had reached after `event`: progress and interruption counts raise it,
  /// a new attempt starts it again at its offset. A restart from zero leaves it as it was, so
  /// the retry that follows (an upload that cannot resume) shows the bytes thrown away, as a
  /// download's does.
  static func progress(after event: TraceEvent, before: Int64) -> Int64 {
    switch event.traceKind {
    case .delegateDidWriteData?: return int(event["totalBytesWritten"]) ?? before
    case .taskInterrupted?, .taskStalled?, .taskFlowing?, .taskFinished?: return int(event["bytes"]) ?? before
    case .taskRetry?: return int(event["offset"]) ?? before
    case .delegateDidResumeAtOffset?: return int(event["offset"]) ?? before
    case .taskStarted?: return 0
    default: return before
    }
  }

  /// The byte annotation of the segment `event` opens.
  static func bytes(at event: TraceEvent, reached: Int64) -> String? {
    switch event.traceKind {
    case .taskInterrupted?: return int(event["bytes"]).map { "cut off at \(ByteText.readable($0))" }
    case .taskRetry?:
      guard let offset = int(event["offset"]) else { return nil }
      var text = "from \(ByteText.readable(offset))"
      if reached > offset { text += ", \(ByteText.readable(reached - offset)) wasted" }
      return text
    case .taskFinished?: return int(event["bytes"]).map { ByteText.readable($0) }
    case .taskFailed?, .taskCancelled?:
      if let offset = int(event["resumeDataOffset"]) { return "resume data at \(ByteText.readable(offset))" }
      return reached > 0 ? "\(ByteText.readable(reached)) lost, no resume data" : nil
    default: return nil
    }
  }

  /// Applies an event that does not change the phase to the segment it happens in: a resume
  /// from resume data, a restart from zero.
  static func annotate(_ segment: inout Segment, with event: TraceEvent) {
    switch event.traceKind {
    case .delegateDidResumeAtOffset?:
      guard segment.phase == "transferring", let offset = int(event["offset"]) else { return }
      let total = int(event["total"]).map { " of \(ByteText.readable($0))" } ?? ""
      if offset > 0 {
        segment.bytes = "resumed at \(ByteText.readable(offset))\(total)"
      } else if segment.bytes == nil {
        segment.bytes = "from 0\(total): resume data not usable"
      }
    case .taskRestartedFromZero?:
      let why = event["reason"].map { " (\($0))" } ?? ""
      segment.bytes = "restarted from 0\(why)"
    default: return
    }
  }

  /// `delegate.didComplete`: the final phase becomes delivered. Delivered as it ended, the
  /// segment is simply marked; delivered later, a solid `delivered` segment follows the hatched
  /// wait, so the bar shows both instants.
  static func deliver(_ list: inout [Segment], at event: TraceEvent) {
    guard var last = list.last, endings.contains(last.phase), last.delivered == false else { return }
    let t = event.time
    if last.start == t {
      list[list.count - 1].delivered = true
      list[list.count - 1].detail += "; delivered to the app at once"
      return
    }
    last.start = t
    last.end = t
    last.delivered = true
    last.label = "delivered"
    last.bytes = nil
    last.detail = "\(event["task"]?.description ?? "?"): \(last.phase), delivered to the app from \(t) — "
    last.detail += TimelineModel.describe(event)
    list.append(last)
  }

  /// The segment a `task.*` or `delegate.*` event opens, or nil for events that do not change
  /// the phase (redirects, restarts from zero, progress).
  static func phase(after event: TraceEvent) -> Segment? {
    let t = event.time
    let name = event["task"]?.description ?? "?"
    let reason = event["reason"]?.description
    func segment(_ phase: String, _ reason: String?, _ label: String, _ what: String) -> Segment {
      Segment(
        start: t, end: t, phase: phase, reason: reason, label: label,
        detail: "\(name): \(what) from \(t) — \(TimelineModel.describe(event))")
    }
    func ending(_ phase: String, _ reason: String?, _ label: String, _ what: String) -> Segment {
      var s = segment(phase, reason, label, what + "; ended in the daemon")
      s.delivered = false
      return s
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
    case .taskChallenged?:
      let method = event["method"].map { " \($0)" } ?? ""
      return segment(
        "waiting", "challengeAnswer", "challenge answer",
        "waiting for the app's answer to a\(method) challenge")
    case .taskChallengeAnswered?, .taskChallengeTimedOut?:
      return segment("transferring", nil, "transferring", "transferring after the challenge")
    case .taskStarted?: return segment("transferring", nil, "transferring", "transferring")
    case .taskRetry?:
      let attempt = event["attempt"].map { "attempt \($0)" } ?? "retry"
      return segment("transferring", nil, attempt, "transferring, \(attempt)")
    case .taskFinished?:
      let status = event["status"].map { " \($0)" } ?? ""
      return ending("done", nil, "done" + status, "finished" + status)
    case .taskFailed?:
      let error = event["error"]?.description ?? "error"
      return ending("failed", error, "failed: \(error)", "failed with \(error)")
    case .taskLost?:
      return ending("failed", reason ?? "lost", "lost", "lost (\(reason ?? "?")); the app is never told")
    case .taskCancelled?:
      if reason == "userForceQuitApplication" {
        return ending(
          "cancelled", reason, "cancelled: force quit", "cancelled because the user force-quit the app")
      }
      let why = reason.map { " (\($0))" } ?? ""
      return ending("cancelled", reason, "cancelled" + why, "cancelled" + why)
    default: return nil
    }
  }

  private static func int(_ value: TraceValue?) -> Int64? {
    if case .int(let n)? = value { return n }
    return nil
  }
}
