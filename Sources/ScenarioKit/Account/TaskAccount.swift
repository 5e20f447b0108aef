import SimKernel
import TransferEngine

/// Why one task took as long as it did: when it was created, first started, ended in the
/// daemon and was delivered to the app, and every stretch of its life in between labelled with
/// what it was doing or waiting for.
///
/// Derived from the trace alone (plus the engine's per-task count of wasted bytes, which the
/// trace does not carry), so `bgsim run`, `bgsim explain`, the HTML report and the sweep's
/// per-reason columns all read one computation.
public struct TaskAccount: Hashable, Sendable {
  /// What a task is doing during one interval of its life.
  public enum Activity: Hashable, Sendable {
    /// Created; the app has not called `resume()` yet.
    case notResumed
    /// Resumed; the daemon has not decided yet (normally zero-length).
    case queued
    /// Held back, with the `task.deferred` reason.
    case waiting(SimURLSessionTask.WaitReason.Kind)
    /// Interrupted; waiting out the retry backoff (`task.interrupted` until the next attempt or deferral).
    case backoff
    /// Moving bytes (an attempt is running).
    case transferring
    /// An attempt is running but the server sends nothing (`task.stalled` until `task.flowing`).
    case stalled
    /// Challenged for credentials; the daemon holds the connection and waits for the app's
    /// answer, waking it if need be (`task.challenged` until `task.challengeAnswered` or
    /// `task.challengeTimedOut`). No bytes move, so it is not transferring.
    case waitingForChallengeAnswer
    /// A default session's transfer paused because its app was suspended (`task.paused`).
    case paused
    /// Stopped by the app's `suspend()` (`task.suspend` until its next `task.resume`).
    case suspendedByApp
    /// Ended in the daemon; the app has not been told (`delegate.didComplete`) yet.
    case awaitingDelivery

    /// The words `run`, `explain` and the report print.
    public var label: String {
      switch self {
      case .notResumed: return "not resumed by the app"
      case .queued: return "queued"
      case .waiting(let kind): return "waiting: " + Self.label(kind)
      case .backoff: return "retry backoff"
      case .transferring: return "transferring"
      case .stalled: return "stalled (server sends nothing)"
      case .waitingForChallengeAnswer: return "waiting: app's challenge answer"
      case .paused: return "paused: app suspended"
      case .suspendedByApp: return "suspended by the app"
      case .awaitingDelivery: return "awaiting delivery to the app"
      }
    }

    /// A short name for the kind of wait, as people say it.
    public static func label(_ kind: SimURLSessionTask.WaitReason.Kind) -> String {
      switch kind {
      case .earliestBegin: return "earliest begin date"
      case .rateLimiter: return "rate limiter"
      case .discretionary: return "discretionary"
      case .connectivity: return "connectivity"
      case .cellularNotAllowed: return "cellular not allowed"
      case .expensiveNotAllowed: return "expensive network not allowed"
      case .constrainedNotAllowed: return "constrained network not allowed"
      case .connectionLimit: return "connection limit"
      case .retryBackoff: return "retry backoff"
      case .appSuspended: return "app suspended"
      case .deviceLocked: return "device locked since restart"
      case .delayedRequest: return "app's willBeginDelayedRequest answer"
      }
    }
  }

  /// One stretch of a task's life, `start ..< end`, with the trace events behind it.
  public struct Interval: Hashable, Sendable {
    /// When the interval began.
    public var start: SimTime
    /// When it ended.
    public var end: SimTime
    /// What the task was doing (or waiting for) meanwhile.
    public var activity: Activity
    /// What the opening event adds: the missing conditions of a discretionary wait, an
    /// interruption's reason, a rate limiter's `until`; empty when nothing.
    public var detail: String
    /// Index in the trace of the event that began the interval.
    public var opening: Int
    /// Index in the trace of the event that ended it; nil when it lasted to the end of the run.
    public var closing: Int?

    /// How long the interval lasted.
    public var duration: SimDuration { end - start }
  }

  /// How the task ended in the daemon.
  public enum Outcome: String, Hashable, Sendable {
    /// The daemon got the whole response (`task.finished`).
    case finished
    /// It failed with a transport error (`task.failed`).
    case failed
    /// The app, the user or the system cancelled it (`task.cancelled`).
    case cancelled
    /// It vanished with its process (`task.lost`).
    case lost
    /// Still unfinished when the run ended.
    case unfinished
  }

  /// The task's name in the trace.
  public var task: String
  /// The identifier of its session.
  public var session: String
  /// When the app made it.
  public var created: SimTime
  /// When it first moved bytes; nil if it never did.
  public var firstStarted: SimTime?
  /// When it ended in the daemon (`task.finished`, `.failed`, `.cancelled`, `.lost`).
  public var ended: SimTime?
  /// How it ended in the daemon, or `unfinished`.
  public var outcome: Outcome
  /// When the app was told (`delegate.didComplete`); nil when it never was.
  public var delivered: SimTime?
  /// Contiguous, from `created` to `delivered` (or the end, or the run's end).
  public var intervals: [Interval]
  /// Bytes moved and then thrown away by restarts.
  public var bytesWasted: Int64
  /// The bytes the task had when it finished (`task.finished bytes`), when it did.
  public var bytes: Int64?

  /// From creation to delivery (or to the end of the task, or of the run).
  public var total: SimDuration {
    (intervals.last?.end ?? created) - created
  }

  /// Time per activity, summed over intervals, largest first (ties in first-seen order).
  public var breakdown: [(activity: Activity, time: SimDuration)] {
    var order: [Activity] = []
    var sums: [Activity: SimDuration] = [:]
    for interval in intervals {
      if sums[interval.activity] == nil { order.append(interval.activity) }
      sums[interval.activity, default: .zero] = sums[interval.activity, default: .zero] + interval.duration
    }
    let rows = order.enumerated().map { (index: $0.offset, activity: $0.element, time: sums[$0.element]!) }
    return rows.sorted { ($0.time, $1.index) > ($1.time, $0.index) }.map { ($0.activity, $0.time) }
  }

  /// Total time spent in `activity`.
  public func time(in activity: Activity) -> SimDuration {
    intervals.reduce(.zero) { $1.activity == activity ? $0 + $1.duration : $0 }
  }

  /// The conditions a discretionary wait was missing, in first-seen order (`charging`, `wifi`...).
  public var missingConditions: [String] {
    var seen: [String] = []
    for interval in intervals where interval.activity == .waiting(.discretionary) {
      for condition in interval.detail.split(separator: ",").map(String.init) where !seen.contains(condition)
      {
        seen.append(condition)
      }
    }
    return seen
  }
}
