import SimKernel
import TransferEngine

/// What an app can see of a run: the trace restricted to the kinds and fields an app observes
/// through its own callbacks (the ones `BgsimRecorder` writes on a device).
///
/// The daemon's side (`task.started`, `task.deferred`, `ratelimiter.*`, suspension) is
/// invisible to an app, so calibration fits the policy from these events only.
public enum ObservableTrace {
  /// Each observable kind and the fields an app can know, in the trace's order (a subset of
  /// the kind's `fieldNames`). `task.created` names the task's kind `taskKind`, so that it does
  /// not shadow the record's own `kind`.
  public static let fields: [TraceKind: [String]] = [
    .appLaunch: ["reason"],
    .appForeground: [],
    .appBackground: [],
    .appCompletionHandlerCalled: ["session"],
    .taskCreated: ["task", "session", "taskIdentifier", "url", "taskKind"],
    .delegateHandleEvents: ["session"],
    .delegateDidWriteData: ["task", "totalBytesWritten", "totalBytesExpectedToWrite"],
    .delegateDidFinishDownloading: ["task", "bytes", "description"],
    .delegateDidReceiveData: ["task", "bytes"],
    .delegateDidResumeAtOffset: ["task", "offset", "total"],
    .delegateDidComplete: ["task", "error", "code", "reason", "resumeDataOffset", "status"],
    .delegateDidFinishEvents: ["session"],
    .delegateTaskIsWaitingForConnectivity: ["task"],
    .networkChange: ["interface", "expensive", "constrained"],
    .powerChange: ["charging", "battery", "lowPowerMode"],
  ]

  /// The observable kinds whose times calibration compares. Left out: `network.change` and
  /// `power.change` (inputs of the world, not outcomes) and `delegate.didWriteData` (a device
  /// calls it far more often than the simulation's one per tenth, so counts differ).
  public static let matchedKinds: Set<TraceKind> = Set(fields.keys).subtracting([
    .networkChange, .powerChange, .delegateDidWriteData,
  ])

  /// True for a kind an app can observe.
  public static func isObservable(_ kind: String) -> Bool {
    TraceKind(rawValue: kind).map { fields[$0] != nil } ?? false
  }

  /// True for an event whose time calibration compares.
  static func isMatched(_ event: TraceEvent) -> Bool { event.traceKind.map(matchedKinds.contains) ?? false }

  /// The events an app observes, each with only the fields it can know.
  ///
  /// - Complexity: O(events).
  public static func project(_ events: [TraceEvent]) -> [TraceEvent] {
    events.compactMap(project)
  }

  /// One event as the app sees it, or nil if it cannot see it.
  public static func project(_ event: TraceEvent) -> TraceEvent? {
    guard let kind = event.traceKind, let keep = fields[kind] else { return nil }
    return TraceEvent(
      time: event.time, kind: event.kind, fields: event.fields.filter { keep.contains($0.key) })
  }
}
