import SimKernel
import TransferEngine

/// Builds every task's `TaskAccount` from a trace in one pass.
public enum TaskAccounts {
  /// The account of every task the trace created, in creation order.
  ///
  /// - Parameters:
  ///   - events: the run's trace.
  ///   - endTime: when the run ended (closes what was still open).
  ///   - wasted: bytes each task threw away, by task name (the trace does not carry them). A
  ///     `String` key: two names that differ only in their Unicode form share one entry
  ///     (`compute(_:)` reads each task's own from a `RunResult`).
  /// - Complexity: O(events).
  public static func compute(
    _ events: [TraceEvent], endTime: SimTime, wasted: [String: Int64] = [:]
  ) -> [TaskAccount] {
    compute(events, endTime: endTime) { _, name in wasted[name] ?? 0 }
  }

  /// The accounts, each task's wasted bytes from `wasted(index, name)`: the index is the
  /// task's place in creation order.
  package static func compute(
    _ events: [TraceEvent], endTime: SimTime, wasted: (Int, String) -> Int64
  ) -> [TaskAccount] {
    var accounts: [TaskAccount] = []
    /// The current account of each task name (a name reused by a later task starts a new one),
    /// by its bytes: a name in another Unicode form is another task.
    var current: [WrittenKey: Int] = [:]
    func open(_ index: Int, _ activity: TaskAccount.Activity, at event: Int, detail: String = "") {
      let time = events[event].time
      if let last = accounts[index].intervals.indices.last {
        accounts[index].intervals[last].end = time
        accounts[index].intervals[last].closing = event
      }
      accounts[index].intervals.append(
        .init(start: time, end: time, activity: activity, detail: detail, opening: event, closing: nil))
    }
    func close(_ index: Int, at event: Int) {
      guard let last = accounts[index].intervals.indices.last, accounts[index].intervals[last].closing == nil
      else { return }
      accounts[index].intervals[last].end = events[event].time
      accounts[index].intervals[last].closing = event
    }
    for (i, event) in events.enumerated() {
      guard let kind = event.traceKind, case .string(let name)? = event["task"] else { continue }
      if kind == .taskCreated {
        let session = event["session"]?.description ?? ""
        accounts.append(
          TaskAccount(
            task: name, session: session, created: event.time, firstStarted: nil, ended: nil,
            outcome: .unfinished, delivered: nil, intervals: [], bytesWasted: wasted(accounts.count, name),
            bytes: nil))
        current[WrittenKey(name)] = accounts.count - 1
        open(accounts.count - 1, .notResumed, at: i)
        continue
      }
      guard let index = current[WrittenKey(name)] else { continue }
      let state = accounts[index].intervals.last?.activity
      // Nothing after the end changes what the task was doing, except its delivery.
      let hasEnded = accounts[index].ended != nil
      switch kind {
      case .taskResume where state == .notResumed || state == .suspendedByApp:
        open(index, .queued, at: i)
      case .taskSuspend where !hasEnded:
        open(index, .suspendedByApp, at: i)
      case .taskDeferred where !hasEnded:
        let reason = event["reason"]?.description ?? ""
        guard let wait = SimURLSessionTask.WaitReason.Kind(rawValue: reason) else { break }
        var detail = ""
        if let missing = event["missing"] { detail = missing.description }
        if let until = event["until"] { detail = "until \(until)" }
        open(index, .waiting(wait), at: i, detail: detail)
      case .taskStarted where !hasEnded, .taskRetry where !hasEnded:
        if accounts[index].firstStarted == nil { accounts[index].firstStarted = event.time }
        let detail = kind == .taskRetry ? "attempt \(event["attempt"]?.description ?? "?")" : ""
        open(index, .transferring, at: i, detail: detail)
      case .taskInterrupted where !hasEnded:
        open(index, .backoff, at: i, detail: event["reason"]?.description ?? "")
      case .taskStalled where !hasEnded && state == .transferring:
        open(index, .stalled, at: i)
      case .taskFlowing where !hasEnded && state == .stalled:
        open(index, .transferring, at: i)
      case .taskChallenged where !hasEnded:
        open(index, .waitingForChallengeAnswer, at: i, detail: event["method"]?.description ?? "")
      case .taskChallengeAnswered where !hasEnded && state == .waitingForChallengeAnswer,
        .taskChallengeTimedOut where !hasEnded && state == .waitingForChallengeAnswer:
        open(index, .transferring, at: i, detail: event["disposition"]?.description ?? "")
      case .taskPaused where !hasEnded:
        open(index, .paused, at: i, detail: event["reason"]?.description ?? "")
      case .taskFinished, .taskFailed, .taskCancelled, .taskLost:
        guard !hasEnded else { break }
        accounts[index].ended = event.time
        accounts[index].outcome = outcome(kind)
        if kind == .taskFinished, case .int(let bytes)? = event["bytes"] { accounts[index].bytes = bytes }
        if kind == .taskLost {
          // A lost task's app is never told.
          close(index, at: i)
        } else {
          var detail = kind == .taskFinished ? "" : event["error"]?.description ?? ""
          if let reason = event["reason"], kind == .taskCancelled { detail += " (\(reason))" }
          open(index, .awaitingDelivery, at: i, detail: detail)
        }
      case .delegateDidComplete where accounts[index].delivered == nil && hasEnded:
        accounts[index].delivered = event.time
        close(index, at: i)
      default: break
      }
    }
    for index in accounts.indices {
      if let last = accounts[index].intervals.indices.last, accounts[index].intervals[last].closing == nil {
        accounts[index].intervals[last].end = endTime
      }
    }
    return accounts
  }

  /// The accounts of a run, with the engine's per-task wasted bytes.
  public static func compute(_ result: RunResult) -> [TaskAccount] {
    compute(
      result.trace.events, endTime: result.endTime, wastedInCreationOrder: result.bytesWastedInCreationOrder,
      byName: [:])
  }

  /// Each task name's wasted bytes, summed over the tasks of that name (a `String` key: names
  /// that differ only in their Unicode form share one), from each task's own in creation order:
  /// the k-th `task.created` event of `events` is the k-th task. Made only when asked for, as
  /// hashing every task's name cost a run a tenth of its instructions.
  public static func wastedByName(_ events: [TraceEvent], inCreationOrder wasted: [Int64]) -> [String: Int64]
  {
    var byName: [String: Int64] = [:]
    var index = 0
    for event in events where index < wasted.count && event.is(.taskCreated) {
      defer { index += 1 }
      guard case .string(let name)? = event["task"] else { continue }
      let (sum, overflow) = byName[name, default: 0].addingReportingOverflow(wasted[index])
      byName[name] = overflow ? Int64.max : sum
    }
    return byName
  }

  /// The accounts, each task's wasted bytes its own from `wastedInCreationOrder` (the engine's
  /// tasks in order), else from `byName`.
  package static func compute(
    _ events: [TraceEvent], endTime: SimTime, wastedInCreationOrder inOrder: [Int64], byName: [String: Int64]
  ) -> [TaskAccount] {
    compute(events, endTime: endTime) { index, name in
      index < inOrder.count ? inOrder[index] : byName[name] ?? 0
    }
  }

  /// Longest first; ties in creation order.
  public static func slowestFirst(_ accounts: [TaskAccount]) -> [TaskAccount] {
    accounts.enumerated().sorted { ($0.element.total, $1.offset) > ($1.element.total, $0.offset) }.map(
      \.element)
  }

  private static func outcome(_ kind: TraceKind) -> TaskAccount.Outcome {
    switch kind {
    case .taskFinished: return .finished
    case .taskFailed: return .failed
    case .taskCancelled: return .cancelled
    default: return .lost
    }
  }
}
