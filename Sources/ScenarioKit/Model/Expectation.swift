import SimKernel
import TransferEngine

/// A numeric comparison in an expectation: `equals`, `atLeast`, `atMost`.
public enum Comparison: Hashable, Sendable {
  /// The value must equal this.
  case equals(Int64)
  /// The value must be this or more.
  case atLeast(Int64)
  /// The value must be this or less.
  case atMost(Int64)

  /// Whether `value` satisfies the comparison.
  public func holds(_ value: Int64) -> Bool {
    switch self {
    case .equals(let v): return value == v
    case .atLeast(let v): return value >= v
    case .atMost(let v): return value <= v
    }
  }
}

/// Final state of a task, as `expect` names it.
public enum ExpectedTaskState: String, Hashable, Sendable, CaseIterable {
  /// Ended without a transport error (an HTTP error status included).
  case completed
  /// Ended with a transport error.
  case failed
  /// Ended by a cancellation, or lost with its process.
  case cancelled
  /// Resumed and moving bytes when the run ended.
  case running
  /// Resumed but waiting (deferred, backing off) when the run ended.
  case waiting
  /// Never resumed by the end of the run.
  case suspended
}

/// One item of `expect`: something that must hold at the end of the run.
public struct Expectation: Sendable {
  /// The kinds of expectation the format has, each with what it compares.
  public enum Form: Sendable {
    /// `{"task": "book", "state": "completed", "by": "2h"}`
    case taskState(task: String, state: ExpectedTaskState, by: SimTime?)
    /// `{"task": "book", "startsAfter": "1h"}`: first started at or after that instant.
    case startsAfter(task: String, SimTime)
    /// `{"task": "book", "error": "cancelled", "reason": "userForceQuitApplication"}`
    case error(task: String, name: String, reason: String?)
    /// `{"task": "book", "resumedAtOffset": "12MB"}`, or a range: `{"atLeast": "50MB"}`
    case resumedAtOffset(task: String, Comparison)
    /// `{"task": "book", "status": 503}`
    case status(task: String, Int)
    /// `{"app": "backgroundLaunches", "equals": 1}`
    case appCounter(name: String, Comparison)
    /// `{"app": "state", "at": "3h", "equals": "suspended"}`: the app's state at an instant
    /// (after every event at that instant).
    case appState(at: SimTime, AppState)
    /// `{"rateLimiter": "delayAtWake", "wake": 3, "equals": "4m"}`
    case delayAtWake(wake: Int, SimDuration)
    /// `{"trace": [...], "inOrder": true}` or a single pattern that must occur.
    case trace(patterns: [String], inOrder: Bool)
    /// `{"trace": "delegate.didComplete task=book", "count": 1}` (or `count` with atLeast/atMost)
    case traceCount(pattern: String, Comparison)
    /// `{"lint": "completionHandlerNeverCalled", "present": true}`
    case lint(rule: String, present: Bool)
  }

  /// What must be true at the end of the run, and about which task, counter or trace lines.
  public var form: Form
  /// JSON path in the file (`expect[2]`), for messages.
  public var path: String
  /// For a task form whose `task` is a pattern with `*`: whether every matching task
  /// (`"all": true`) or at least one (`"any": true`) must satisfy it.
  public var quantifier: TaskQuantifier?

  /// An expectation of `form`, found at `path`.
  public init(_ form: Form, path: String, quantifier: TaskQuantifier? = nil) {
    self.form = form
    self.path = path
    self.quantifier = quantifier
  }
}

extension Expectation.Form {
  /// The task a task form is about (nil for the other forms).
  public var task: String? {
    switch self {
    case .taskState(let task, _, _), .startsAfter(let task, _), .error(let task, _, _),
      .resumedAtOffset(let task, _), .status(let task, _):
      return task
    default: return nil
    }
  }

  /// The same form about another task.
  func with(task name: String) -> Expectation.Form {
    switch self {
    case .taskState(_, let state, let by): return .taskState(task: name, state: state, by: by)
    case .startsAfter(_, let time): return .startsAfter(task: name, time)
    case .error(_, let error, let reason): return .error(task: name, name: error, reason: reason)
    case .resumedAtOffset(_, let bytes): return .resumedAtOffset(task: name, bytes)
    case .status(_, let status): return .status(task: name, status)
    default: return self
    }
  }
}

/// How a task expectation with a `*` pattern combines the tasks it matches.
public enum TaskQuantifier: String, Hashable, Sendable, CaseIterable {
  /// Every task the pattern matches must satisfy the expectation (and at least one must match).
  case all
  /// At least one matching task must satisfy it.
  case any
}

/// Counters of the app's life that `{"app": NAME, ...}` expectations read from the trace.
public enum AppCounter: String, CaseIterable, Hashable, Sendable {
  /// `app.launch reason=background`
  case backgroundLaunches
  /// `app.resume reason=background`
  case backgroundResumes
  /// `app.launch reason=user`
  case userLaunches
  /// Background launches plus background resumes.
  case wakes
  /// `app.suspend`
  case suspensions
  /// `app.terminate` of any reason
  case terminations
  /// `app.completionHandlerCalled`
  case completionHandlerCalls
}
