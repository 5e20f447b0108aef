import ScenarioKit
import SimKernel
import TransferEngine

/// What one run of a sweep measured, read from its trace and byte totals.
public struct RunMetrics: Hashable, Sendable {
  /// The `task.deferred` reasons with a deferral-time column, in column order.
  public static let deferralReasons = SimURLSessionTask.WaitReason.Kind.deferrable.map(\.rawValue)

  public var tasks = 0
  public var finished = 0
  /// Failed, cancelled or lost.
  public var failed = 0
  /// Time of the last task's end when every task created ended (finished or not); nil otherwise.
  public var allDone: SimDuration?
  /// Per finished task, from `task.created` to `task.finished`: nearest-rank percentiles.
  public var taskP50: SimDuration?
  public var taskP95: SimDuration?
  public var wakes = 0
  public var backgroundLaunches = 0
  public var backgroundResumes = 0
  /// The largest rate-limiter delay any wake set.
  public var maxDelay = SimDuration.zero
  public var bytesOnWire: Int64 = 0
  public var bytesWasted: Int64 = 0
  /// Summed over tasks, by `deferralReasons` index.
  public var deferred: [SimDuration] = Array(repeating: .zero, count: RunMetrics.deferralReasons.count)
  /// Summed over tasks: time challenged and waiting for the app's answer (not transferring).
  public var challengeAnswer = SimDuration.zero
  public var lints = 0
  /// Distinct lint rules, sorted.
  public var lintRules: [String] = []
  public var expectationsFailed = 0
  public var end = SimDuration.zero

  public init() {}

  /// Measures a run.
  ///
  /// - Complexity: O(events + tasks log tasks).
  public init(_ result: RunResult) {
    // By the name's bytes, as the run tells tasks apart.
    var created: [WrittenKey: SimTime] = [:]
    var taskTimes: [SimDuration] = []
    var ended = 0
    var lastEnd = SimTime.zero
    var rules = Set<String>()
    let endTime = result.endTime
    for event in result.trace.events {
      let task: WrittenKey? =
        if case .string(let name) = event["task"] { WrittenKey(name) } else { nil }
      switch event.traceKind {
      case .taskCreated?:
        tasks += 1
        if let task { created[task] = event.time }
      case .taskFinished?:
        finished += 1
        ended += 1
        lastEnd = event.time
        if let task, let start = created[task] { taskTimes.append(event.time - start) }
      case .taskFailed?, .taskCancelled?, .taskLost?:
        failed += 1
        ended += 1
        lastEnd = event.time
      case .rateLimiterWake?:
        wakes += 1
        if case .duration(let d) = event["delay"] { maxDelay = max(maxDelay, d) }
      case .appLaunch?:
        if event["reason"] == .string("background") { backgroundLaunches += 1 }
      case .appResume?:
        if event["reason"] == .string("background") { backgroundResumes += 1 }
      case .lint?:
        lints += 1
        if let rule = event["rule"] { rules.insert(rule.description) }
      default: break
      }
    }
    // The per-reason columns are the task accounts' waits, the same computation `run` prints.
    for account in TaskAccounts.compute(result) {
      for interval in account.intervals {
        if interval.activity == .waitingForChallengeAnswer {
          challengeAnswer = challengeAnswer + interval.duration
        }
        guard case .waiting(let kind) = interval.activity,
          let column = Self.deferralReasons.firstIndex(of: kind.rawValue)
        else { continue }
        deferred[column] = deferred[column] + interval.duration
      }
    }
    if tasks > 0 && ended == tasks { allDone = lastEnd.sinceStart }
    taskTimes.sort()
    taskP50 = Self.percentile(taskTimes, 0.5)
    taskP95 = Self.percentile(taskTimes, 0.95)
    bytesOnWire = result.bytesOnWire
    bytesWasted = result.bytesWasted
    lintRules = rules.sorted()
    expectationsFailed = result.expectations.filter { !$0.passed }.count + (result.runError == nil ? 0 : 1)
    end = endTime.sinceStart
  }

  /// Nearest-rank percentile of sorted values: the smallest value with at least `p` of them at or below.
  public static func percentile<T>(_ sorted: [T], _ p: Double) -> T? {
    guard !sorted.isEmpty else { return nil }
    let rank = Int((p * Double(sorted.count)).rounded(.up))
    return sorted[min(sorted.count, max(1, rank)) - 1]
  }
}
