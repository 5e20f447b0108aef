import SimKernel

/// How the app asks the system to handle a continued-processing request it cannot run at once
/// (`BGContinuedProcessingTaskRequest.SubmissionStrategy`; Apple's default is `queue`).
public enum ContinuedProcessingStrategy: String, Sendable, CaseIterable {
  /// Run as soon as there is room; queued requests are cancelled by the app switcher [A].
  case queue
  /// Refuse the submission with `immediateRunIneligible` when it cannot run now [A].
  case fail
}

/// Why `submit` refused a request: `BGTaskScheduler.Error.Code` names and numbers [A].
public enum ContinuedProcessingError: String, Sendable, CaseIterable {
  /// 1: the app cannot schedule background work.
  case unavailable
  /// 2: a request with this identifier is already queued or running [S].
  case tooManyPendingTaskRequests
  /// 3: not permitted; bgsim's answer to a submission from the background, where Apple says
  /// only that the app submits from the foreground [S].
  case notPermitted
  /// 4: a `.fail` request the system cannot run at once [A].
  case immediateRunIneligible

  /// `BGTaskScheduler.Error.Code`'s raw value.
  public var code: Int {
    switch self {
    case .unavailable: return 1
    case .tooManyPendingTaskRequests: return 2
    case .notPermitted: return 3
    case .immediateRunIneligible: return 4
    }
  }
}

/// What `submit` did with a request.
public enum ContinuedProcessingSubmission: Equatable, Sendable {
  /// The task runs now: its launch handler has been called.
  case running
  /// Waiting behind the running tasks; the launch handler runs when one ends.
  case queued
  /// Refused; nothing runs.
  case failed(ContinuedProcessingError)
}

/// How a continued-processing task ended.
public enum ContinuedProcessingEnd: String, Sendable {
  /// `setTaskCompleted(success: true)`.
  case succeeded
  /// `setTaskCompleted(success: false)`.
  case failed
  /// Its progress did not advance for `continuedProcessing.progressWindow`.
  case expired
  /// The user stopped it from the system's progress UI.
  case cancelledByUser
  /// The user removed the app from the app switcher (force quit).
  case cancelledByAppSwitcher
  /// The app's process ended some other way (memory pressure, watchdog, restart).
  case processEnded
}

/// The app's `BGContinuedProcessingTask`s (behavior.md, "Continued processing"): requests that
/// run, wait in the queue, and the progress each running one reported.
///
/// A value owned by `Engine`; the rooms (`Rules/AppRequests/`, `Rules/System/Engine+ContinuedProcessing.swift`)
/// carry out what its inputs decide, and the interpreter calls the app's handlers.
struct ContinuedProcessingTasks {
  /// One submitted request, running or queued.
  struct Entry {
    let identifier: String
    let title: String
    let subtitle: String
    /// Progress the app reported: `completedUnitCount`, `totalUnitCount`.
    var completed: Int64 = 0
    var total: Int64 = 0
    /// When `completed` last went up (or the task started).
    var lastAdvance: SimTime = .zero
    /// Bumped whenever the task's stall check must be re-armed or ignored.
    var generation: UInt32 = 0
    /// The app's handlers, kept here so they die with the entry.
    let launch: (AppContext, String) -> Void
    var expiration: ((AppContext) -> Void)?
    /// Set when the system expires or the user cancels the task: how it ends, whatever the app
    /// then passes to `setTaskCompleted`.
    var ending: ContinuedProcessingEnd?
  }

  private(set) var running: [Entry] = []
  /// The last stall-check generation handed out; unique across tasks.
  private var lastGeneration: UInt32 = 0
  /// The queued requests, oldest first, from `queueHead` on; a request cancelled while queued
  /// leaves a hole. A scan and a shift per request made thousands of them cost the square of
  /// their number; the running ones are at most `maxRunning`.
  private var queue: [Entry?] = []
  private var queueHead = 0
  /// Where each queued request is in `queue`.
  /// Requests are named by their identifiers' bytes, as the loader tells them apart.
  private var queuedAt: [WrittenKey: Int] = [:]

  /// The queued requests, oldest first.
  var queued: [Entry] { queue[queueHead...].compactMap { $0 } }
  /// How many requests are queued.
  var queuedCount: Int { queuedAt.count }
  /// The system wanted to suspend the app while a task ran: suspend when the last one ends.
  var suspensionDeferred = false

  /// The request named `identifier`, running or queued.
  func contains(_ identifier: String) -> Bool {
    queuedAt[WrittenKey(identifier)] != nil || isRunning(identifier)
  }

  func isRunning(_ identifier: String) -> Bool { running.contains { $0.identifier.hasSameUTF8(identifier) } }

  /// The system wants to suspend the app: true when it may, false when a task runs (the
  /// suspension then waits for the last one to end).
  mutating func maySuspend() -> Bool {
    if running.isEmpty { return true }
    suspensionDeferred = true
    return false
  }

  /// Starts `entry` at `now`; returns the generation of its first stall check.
  mutating func addRunning(_ entry: Entry, now: SimTime) -> UInt32 {
    var entry = entry
    lastGeneration &+= 1
    entry.generation = lastGeneration
    entry.lastAdvance = now
    running.append(entry)
    return lastGeneration
  }

  /// What a stall check of `generation` finds at `now`.
  enum StallCheck: Equatable {
    /// No running task armed it (it ended, or is already ending): nothing to do.
    case stale
    /// Progress advanced since: check again at that time.
    case rearm(SimTime)
    /// No progress for the whole window: expire the task.
    case expire(String)
  }

  mutating func stallCheck(generation: UInt32, now: SimTime, window: SimDuration) -> StallCheck {
    guard let entry = running.first(where: { $0.generation == generation && $0.ending == nil }) else {
      return .stale
    }
    let due = entry.lastAdvance + window
    return due > now ? .rearm(due) : .expire(entry.identifier)
  }

  /// Marks the running task as ending (expired or cancelled); false when it is not running or
  /// already ending.
  mutating func markEnding(_ identifier: String, _ end: ContinuedProcessingEnd) -> Bool {
    guard let index = runningIndex(identifier), running[index].ending == nil
    else { return false }
    running[index].ending = end
    return true
  }
  mutating func addQueued(_ entry: Entry) {
    queuedAt[WrittenKey(entry.identifier)] = queue.count
    queue.append(entry)
  }

  /// Removes the running task `identifier` and returns it.
  mutating func removeRunning(_ identifier: String) -> Entry? {
    guard let index = runningIndex(identifier) else { return nil }
    return running.remove(at: index)
  }

  /// Removes the queued request `identifier` and returns it.
  mutating func removeQueued(_ identifier: String) -> Entry? {
    guard let index = queuedAt.removeValue(forKey: WrittenKey(identifier)) else { return nil }
    defer { queue[index] = nil }
    return queue[index]
  }

  /// The first queued request, if there is room for one more running task.
  mutating func nextToStart(limit: Int) -> Entry? {
    guard running.count < limit, !queuedAt.isEmpty else { return nil }
    while queue[queueHead] == nil { queueHead += 1 }
    let next = queue[queueHead]!
    queue[queueHead] = nil
    queueHead += 1
    queuedAt[WrittenKey(next.identifier)] = nil
    // Drop the spent front once it is most of the list (each request is moved at most once per
    // halving, so the cost per request stays constant).
    if queueHead > 32 && queueHead * 2 > queue.count {
      queue.removeFirst(queueHead)
      let moved = queueHead
      queuedAt = queuedAt.mapValues { $0 - moved }
      queueHead = 0
    }
    return next
  }

  /// Records a progress report; true when `completed` went up (the stall window restarts).
  mutating func report(_ identifier: String, completed: Int64, total: Int64, now: SimTime) -> Bool? {
    guard let index = runningIndex(identifier) else { return nil }
    let advanced = completed > running[index].completed
    running[index].completed = completed
    running[index].total = total
    if advanced { running[index].lastAdvance = now }
    return advanced
  }

  func entry(_ identifier: String) -> Entry? { runningIndex(identifier).map { running[$0] } }

  /// Where the running task `identifier` is, compared by its bytes.
  private func runningIndex(_ identifier: String) -> Int? {
    running.firstIndex { $0.identifier.hasSameUTF8(identifier) }
  }

  mutating func setExpiration(_ identifier: String, _ handler: ((AppContext) -> Void)?) {
    guard let index = runningIndex(identifier) else { return }
    running[index].expiration = handler
  }

  /// Everything, running then queued, removed (the process ended).
  mutating func removeAll() -> (running: [Entry], queued: [Entry]) {
    defer {
      running = []
      queue = []
      queueHead = 0
      queuedAt = [:]
      suspensionDeferred = false
    }
    return (running, queued)
  }
}

/// The knobs of `BGContinuedProcessingTask` (behavior.md, "Continued processing"); no source
/// gives either number [S].
public struct ContinuedProcessingPolicy: Hashable, Sendable {
  /// How many continued-processing tasks run at once; more queue or fail (Apple: "the maximum
  /// level of concurrent tasks", no figure).
  public var maxRunning: Int
  /// A running task whose `completedUnitCount` does not rise for this long is expired.
  public var progressWindow: SimDuration

  /// One task at a time, expired after 30 s without progress.
  public init(maxRunning: Int = 1, progressWindow: SimDuration = .seconds(30)) {
    self.maxRunning = maxRunning
    self.progressWindow = progressWindow
  }
}
