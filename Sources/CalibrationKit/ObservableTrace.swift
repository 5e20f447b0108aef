import SimKernel

/// What an app can see of a run: the trace restricted to the kinds and fields an app observes
/// through its own callbacks (the ones `BgsimRecorder` writes on a device).
///
/// The daemon's side (`task.started`, `task.deferred`, `ratelimiter.*`, suspension) is
/// invisible to an app, so calibration fits the policy from these events only.
public enum ObservableTrace {
  /// Each observable kind and the fields an app can know, in the trace's order. `taskKind`
  /// and `kind` are both listed for `task.created`: the trace's field is being renamed.
  public static let fields: [String: [String]] = [
    "app.launch": ["reason"],
    "app.foreground": [],
    "app.background": [],
    "app.completionHandlerCalled": ["session"],
    "task.created": ["task", "session", "taskIdentifier", "url", "kind", "taskKind"],
    "delegate.handleEvents": ["session"],
    "delegate.didWriteData": ["task", "totalBytesWritten", "totalBytesExpectedToWrite"],
    "delegate.didFinishDownloading": ["task", "bytes", "description"],
    "delegate.didReceiveData": ["task", "bytes"],
    "delegate.didResumeAtOffset": ["task", "offset", "total"],
    "delegate.didComplete": ["task", "error", "code", "reason", "resumeDataOffset", "status"],
    "delegate.didFinishEvents": ["session"],
    "delegate.taskIsWaitingForConnectivity": ["task"],
    "network.change": ["interface", "expensive", "constrained"],
    "power.change": ["charging", "battery", "lowPowerMode"],
  ]

  /// The observable kinds whose times calibration compares. Left out: `network.change` and
  /// `power.change` (inputs of the world, not outcomes) and `delegate.didWriteData` (a device calls it far
  /// more often than the simulation's one per tenth, so counts differ).
  public static let matchedKinds: Set<String> = Set(fields.keys).subtracting([
    "network.change", "power.change", "delegate.didWriteData",
  ])

  /// True for a kind an app can observe.
  public static func isObservable(_ kind: String) -> Bool { fields[kind] != nil }

  /// The events an app observes, each with only the fields it can know.
  ///
  /// - Complexity: O(events).
  public static func project(_ events: [TraceEvent]) -> [TraceEvent] {
    events.compactMap(project)
  }

  /// One event as the app sees it, or nil if it cannot see it.
  public static func project(_ event: TraceEvent) -> TraceEvent? {
    guard let keep = fields[event.kind] else { return nil }
    return TraceEvent(
      time: event.time, kind: event.kind, fields: event.fields.filter { keep.contains($0.key) })
  }
}
