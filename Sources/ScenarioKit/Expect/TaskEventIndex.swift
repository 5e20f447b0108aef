import SimKernel
import TransferEngine

/// A finished run's trace events by task name, built in one pass: what the task expectations
/// read, so that an expectation over a `*` pattern matching N tasks does not go over the whole
/// trace N times (issue 26: 10,000 tasks took 25-37 s that way).
struct TaskEventIndex {
  private let events: [TraceEvent]
  /// Positions in `events` of each task's events, in trace order.
  private var positions: [String: [Int]] = [:]
  /// Positions of every `task.created` event, in trace order.
  private var creations: [Int] = []
  /// The created tasks' names, each once, in the order of their first `task.created`.
  private(set) var created: [String] = []
  private var createdNames = Set<String>()

  init(_ events: [TraceEvent]) {
    self.events = events
    for (i, event) in events.enumerated() {
      guard case .string(let name)? = event["task"] else { continue }
      if event.is(.taskCreated) {
        creations.append(i)
        if createdNames.insert(name).inserted { created.append(name) }
      }
      positions[name, default: []].append(i)
    }
  }

  /// The events whose `task` field is `task`, in trace order.
  func events(of task: String) -> [TraceEvent] {
    (positions[task] ?? []).map { events[$0] }
  }

  /// Whether a task of that name was ever created.
  func wasCreated(_ task: String) -> Bool { createdNames.contains(task) }

  /// The last `count` `task.created` events, oldest first.
  func lastCreations(_ count: Int) -> [TraceEvent] {
    creations.suffix(count).map { events[$0] }
  }
}
