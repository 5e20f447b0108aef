import SimKernel
import TransferEngine

/// A finished run's trace events by task name, built in one pass: what the task expectations
/// read, so that an expectation over a `*` pattern matching N tasks does not go over the whole
/// trace N times (issue 26: 10,000 tasks took 25-37 s that way).
///
/// Names are kept by their UTF-8 bytes, as patterns and the trace compare them: `é` written
/// composed and decomposed are two tasks, which `String` keys would file as one.
struct TaskEventIndex {
  private let events: [TraceEvent]
  /// Positions in `events` of each task's events, in trace order, by the name's bytes.
  private let byName = FieldValueIndex()
  /// Positions of every `task.created` event, in trace order.
  private var creations: [Int] = []
  /// The created tasks' names, each once, in the order of their first `task.created`.
  private(set) var created: [String] = []
  /// Each created task's place in `created`, by the name's bytes.
  private var createdOrder: [WrittenKey: Int] = [:]
  /// False when some event's `task` field is not text: then the index does not hold every event
  /// a `task=` pattern can match, and the trace must be read.
  private(set) var tasksAreText = true

  init(_ events: [TraceEvent]) {
    self.events = events
    for (i, event) in events.enumerated() {
      guard case .string(let name)? = event["task"] else {
        if event["task"] != nil { tasksAreText = false }
        continue
      }
      let key = WrittenKey(name)
      if event.is(.taskCreated) {
        creations.append(i)
        if createdOrder[key] == nil {
          createdOrder[key] = created.count
          created.append(name)
        }
      }
      byName.file(name, at: i)
    }
  }

  /// The events whose `task` field is `task`, in trace order.
  func events(of task: String) -> [TraceEvent] {
    positions(of: task).map { events[$0] }
  }

  /// Where the events whose `task` field is `task` are in the trace, in order.
  func positions(of task: String) -> [Int] { byName.positions(of: task) }

  /// Where the events of the tasks `pattern` (exact, or with `*`) can match are, in trace order;
  /// nil when only trying every name would tell (`*`, `*x*`).
  func positions(matching pattern: String) -> [Int]? { byName.positions(matching: pattern) }

  /// Whether a task of that name was ever created.
  func wasCreated(_ task: String) -> Bool { createdOrder[WrittenKey(task)] != nil }

  /// The names of tasks with events that `pattern` (with a `*`) matches, or nil when only trying
  /// every name would tell (`*`, `*x*`).
  func names(matching pattern: String) -> [String]? { byName.values(matching: pattern) }

  /// The created tasks `pattern` matches, in the order they were created.
  func created(matching pattern: String) -> [String] {
    guard pattern.utf8.contains(TracePattern.star) else { return wasCreated(pattern) ? [pattern] : [] }
    guard let names = names(matching: pattern) else {
      return created.filter { TracePattern.wildcardMatch(pattern, $0) }
    }
    let ordered = names.compactMap { name in createdOrder[WrittenKey(name)].map { (order: $0, name: name) } }
    return ordered.sorted { $0.order < $1.order }.map(\.name)
  }

  /// The last `count` `task.created` events, oldest first.
  func lastCreations(_ count: Int) -> [TraceEvent] {
    creations.suffix(count).map { events[$0] }
  }
}
