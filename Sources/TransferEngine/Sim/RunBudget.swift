import SimKernel

/// Limits that stop a run that ran away (a reaction that downloads again on every finish, a
/// loop at one instant) before it takes the machine's memory and time.
///
/// The defaults are far beyond what a sensible scenario reaches (the shipped scenarios stay
/// under a few thousand events) and low enough that a runaway ends within seconds and a few
/// hundred megabytes. `bgsim run --max-events N` and friends raise them.
public struct RunBudget: Hashable, Sendable {
  /// Engine events in the whole run.
  public var maxEvents: Int
  /// Tasks created in the whole run.
  public var maxTasks: Int
  /// Engine events at one simulated instant: time not advancing is a livelock.
  public var maxEventsAtOneInstant: Int
  /// Events recorded in the trace (the trace is kept in memory for the expectations).
  public var maxTraceEvents: Int

  /// A budget; the defaults (2,000,000 events, 200,000 tasks, 100,000 events at one instant,
  /// 1,000,000 trace events) are far beyond any sensible scenario.
  public init(
    maxEvents: Int = 2_000_000, maxTasks: Int = 200_000, maxEventsAtOneInstant: Int = 100_000,
    maxTraceEvents: Int = 1_000_000
  ) {
    self.maxEvents = maxEvents
    self.maxTasks = maxTasks
    self.maxEventsAtOneInstant = maxEventsAtOneInstant
    self.maxTraceEvents = maxTraceEvents
  }

  /// The limits a run has unless told otherwise.
  public static let defaults = RunBudget()
  /// No limits, for benchmarks that measure the engine itself.
  public static let unlimited = RunBudget(
    maxEvents: .max, maxTasks: .max, maxEventsAtOneInstant: .max, maxTraceEvents: .max)
}

/// Which budget a run used up, when, and what it was doing: the run stopped there.
public struct BudgetExceeded: Hashable, Sendable, CustomStringConvertible {
  /// Which of the four limits ran out.
  public enum Limit: String, Hashable, Sendable {
    /// ``RunBudget/maxEvents``.
    case events
    /// ``RunBudget/maxTasks``.
    case tasks
    /// ``RunBudget/maxEventsAtOneInstant``.
    case eventsAtOneInstant
    /// ``RunBudget/maxTraceEvents``.
    case traceEvents

    /// The `bgsim run` option that raises it.
    public var option: String {
      switch self {
      case .events: return "--max-events"
      case .tasks: return "--max-tasks"
      case .eventsAtOneInstant: return "--max-events-per-instant"
      case .traceEvents: return "--max-trace-events"
      }
    }
  }

  /// The limit that ran out.
  public var limit: Limit
  /// The budget's value.
  public var value: Int
  /// Simulated time when the run stopped.
  public var at: SimTime
  /// The kinds and tasks of the most recent trace events, most frequent first
  /// (`delegate.didFinishDownloading task=next-*` x 4000): what was looping.
  public var busiest: [(what: String, count: Int)]

  public static func == (a: BudgetExceeded, b: BudgetExceeded) -> Bool {
    a.limit == b.limit && a.value == b.value && a.at == b.at
      && a.busiest.map(\.what) == b.busiest.map(\.what) && a.busiest.map(\.count) == b.busiest.map(\.count)
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(limit)
    hasher.combine(value)
    hasher.combine(at)
  }

  /// `the run passed 5000000 events at 3h2m (...)`.
  public var description: String {
    let what: String
    switch limit {
    case .events: what = "the run passed \(value) events at \(at)"
    case .tasks: what = "the run created more than \(value) tasks by \(at)"
    case .eventsAtOneInstant:
      what = "more than \(value) events happened at \(at) without simulated time advancing (a livelock)"
    case .traceEvents: what = "the trace passed \(value) events at \(at)"
    }
    let top = busiest.prefix(3).map { "\($0.what) (\($0.count) times)" }.joined(separator: ", ")
    let looping = top.isEmpty ? "" : "; most frequent recent events: \(top)"
    return "\(what)\(looping)"
  }
}

/// Counts a run's events and tells when a budget is used up: the run loop's only per-event
/// bookkeeping, a value the `Simulation` holds so that a check is one access and a few integer
/// comparisons.
struct RunMeter {
  var budget = RunBudget.defaults
  /// Engine events handled so far.
  private(set) var events = 0
  /// Events handled at `instant`, for `RunBudget.maxEventsAtOneInstant`.
  private var eventsAtInstant = 0
  private var instant = SimTime.zero
  /// Set once a budget is used up: the run stops and stays stopped.
  private(set) var stopped = false

  /// Counts one event at `time`.
  @inline(__always) mutating func count(at time: SimTime) {
    events += 1
    if time != instant {
      instant = time
      eventsAtInstant = 0
    }
    eventsAtInstant += 1
  }

  /// The first budget used up by a run at these sizes, if any.
  @inline(__always) func usedUp(tasks: Int, traceEvents: Int) -> BudgetExceeded.Limit? {
    if events > budget.maxEvents { return .events }
    if eventsAtInstant > budget.maxEventsAtOneInstant { return .eventsAtOneInstant }
    if tasks > budget.maxTasks { return .tasks }
    if traceEvents > budget.maxTraceEvents { return .traceEvents }
    return nil
  }

  mutating func stop() { stopped = true }
}

extension RunBudget {
  /// The number `limit` stands for in this budget.
  func value(of limit: BudgetExceeded.Limit) -> Int {
    switch limit {
    case .events: return maxEvents
    case .tasks: return maxTasks
    case .eventsAtOneInstant: return maxEventsAtOneInstant
    case .traceEvents: return maxTraceEvents
    }
  }
}

extension BudgetExceeded {
  /// What `events` were, by kind and task (numbers in names folded to `*`), most frequent first.
  static func busiest(in events: ArraySlice<TraceEvent>) -> [(what: String, count: Int)] {
    var counts: [String: Int] = [:]
    var order: [String] = []
    for event in events {
      var what = event.kind
      if case .string(let task)? = event["task"] { what += " task=" + Self.foldingDigits(task) }
      if counts[what] == nil { order.append(what) }
      counts[what, default: 0] += 1
    }
    // Most frequent first; ties in order of first appearance, so the message is deterministic.
    return order.enumerated().map { (index: $0.offset, what: $0.element, count: counts[$0.element]!) }
      .sorted { ($1.count, $0.index) < ($0.count, $1.index) }.map { ($0.what, $0.count) }
  }

  /// `next-123` -> `next-*`: tasks numbered by a reaction read as one name.
  static func foldingDigits(_ name: String) -> String {
    var out = ""
    var inDigits = false
    for c in name {
      if c.isASCII && c.isNumber {
        if !inDigits { out.append("*") }
        inDigits = true
      } else {
        out.append(c)
        inDigits = false
      }
    }
    return out
  }
}
