import SimKernel
import TransferEngine

/// A validated scenario: what the JSON file says, in the engine's types.
///
/// Produced only by `ScenarioLoader`; every field has been checked, so running it cannot fail
/// for reasons of format (actions of the app while it is not running are reported at run time,
/// naming the timeline entry).
public struct Scenario: Sendable {
  /// The file it came from, for messages.
  public var file: String
  public var name: String
  public var description: String
  public var seed: UInt64
  /// Bound on simulated time; the run ends earlier once nothing is pending.
  public var duration: SimDuration
  /// `startsAt`: the local date and time the run starts (`2026-03-01T21:00:00`), which lets
  /// instants be written as times of day; nil when the scenario counts from zero only.
  public var startsAt: String?
  public var device: DeviceModel
  public var server: ServerModel
  public var policy: Policy
  public var app: AppSpec
  /// Sorted by time, stable for equal times (file order).
  public var timeline: [TimelineEntry]
  public var expectations: [Expectation]
  /// The `random` section: conditions drawn from the run's seed (see `RandomConditions`).
  public var random: RandomConditions?

  public init(
    file: String, name: String, description: String = "", seed: UInt64 = 0, duration: SimDuration = .days(7),
    device: DeviceModel = .wifi, server: ServerModel = .init(), policy: Policy = .defaults,
    app: AppSpec = .init(), timeline: [TimelineEntry] = [], expectations: [Expectation] = [],
    random: RandomConditions? = nil
  ) {
    self.file = file
    self.name = name
    self.description = description
    self.seed = seed
    self.duration = duration
    self.device = device
    self.server = server
    self.policy = policy
    self.app = app
    self.timeline = timeline
    self.expectations = expectations
    self.random = random
  }
}

/// The app under test as the scenario scripts it.
public struct AppSpec: Sendable {
  public var sessions: [SessionConfiguration]
  public var behavior: AppBehavior
  public init(sessions: [SessionConfiguration] = [], behavior: AppBehavior = .init()) {
    self.sessions = sessions
    self.behavior = behavior
  }
}

/// How the scripted app behaves; `false`/`never`/`immediately` values play a buggy app.
public struct AppBehavior: Sendable {
  /// When to call the completion handler handed over by `handleEvents`.
  public enum CompletionHandlerTiming: String, Sendable, CaseIterable {
    /// After `didFinishEvents`: correct.
    case afterEvents
    /// As soon as `handleEvents` hands it over, before events are delivered: a bug.
    case immediately
    /// Never: a bug; the system suspends the app after `completionHandlerTimeout`.
    case never
  }

  public var recreatesSessionsOnLaunch: Bool
  public var storesCompletionHandler: Bool
  public var callsCompletionHandler: CompletionHandlerTiming
  public var movesDownloadedFile: Bool
  /// The expiration handler of a background task ends it (correct); false plays the app that
  /// leaks it, which the watchdog kills.
  public var endsBackgroundTasksOnExpiry: Bool
  public var reactions: [Reaction]
  /// `willBeginDelayedRequest`: nil plays a delegate without the method (a delayed task starts
  /// without asking); a list, one that answers with the first entry matching the task, else
  /// `continueLoading`.
  public var delayedRequestAnswers: [DelayedRequestAnswer]?
  /// `didReceiveChallenge`: the scripted delegate implements the challenge methods and answers
  /// with the first entry that matches the task; nil plays a delegate without them.
  public var challengeAnswers: [ChallengeAnswer]?

  public init(
    recreatesSessionsOnLaunch: Bool = true, storesCompletionHandler: Bool = true,
    callsCompletionHandler: CompletionHandlerTiming = .afterEvents, movesDownloadedFile: Bool = true,
    reactions: [Reaction] = [], endsBackgroundTasksOnExpiry: Bool = true
  ) {
    self.endsBackgroundTasksOnExpiry = endsBackgroundTasksOnExpiry
    self.recreatesSessionsOnLaunch = recreatesSessionsOnLaunch
    self.storesCompletionHandler = storesCompletionHandler
    self.callsCompletionHandler = callsCompletionHandler
    self.movesDownloadedFile = movesDownloadedFile
    self.reactions = reactions
  }
}

/// `on`: app actions performed when a delegate callback arrives for a matching task.
public struct Reaction: Sendable {
  /// Delegate callbacks a reaction can follow.
  public enum Event: String, Sendable, CaseIterable {
    case didFinishDownloading, didComplete, didFinishEvents, handleEvents, didLaunch
    /// `didBecomeInvalidWithError`, after the app invalidated a session (error nil).
    case didBecomeInvalid

    /// Callbacks about a session or the app, not one task: `task` and `{task}` do not apply.
    public static let withoutTask: Set<Event> = [
      .didFinishEvents, .handleEvents, .didLaunch, .didBecomeInvalid,
    ]
  }
  public var event: Event
  /// Task name pattern with `*` wildcards; nil matches every task.
  public var task: String?
  public var actions: [AppAction]
  /// JSON path of the reaction, for run-time messages (`app.behavior.on[0]`).
  public var path: String
  /// The value `{n}` takes at the reaction's first run; it counts up by one at each run.
  public var firstNumber: Int
  /// The reaction runs at most this many times (nil: every time its event comes).
  public var times: Int?
  /// `didComplete` only: the outcome the reaction follows (nil: any).
  public var error: ErrorFilter?

  public init(
    event: Event, task: String? = nil, actions: [AppAction], path: String, firstNumber: Int = 1,
    times: Int? = nil, error: ErrorFilter? = nil
  ) {
    self.event = event
    self.task = task
    self.actions = actions
    self.path = path
    self.firstNumber = firstNumber
    self.times = times
    self.error = error
  }
}

/// A reaction's `error`: which completions it follows.
public enum ErrorFilter: Hashable, Sendable {
  /// `"none"`: the task succeeded (an HTTP error status is still a success for URLSession).
  case success
  /// An error code, by name (`"cancelled"`) or number (`-999`).
  case code(SimURLError.Code)
  /// A system cancellation's reason (`"userForceQuitApplication"`).
  case cancelReason(SimURLError.CancelReason)

  /// The form the format writes.
  public var text: String {
    switch self {
    case .success: return "none"
    case .code(let code): return code.name
    case .cancelReason(let reason): return reason.name
    }
  }

  /// Whether a completion with `error` (nil: success) passes the filter.
  public func matches(_ error: SimURLError?) -> Bool {
    switch self {
    case .success: return error == nil
    case .code(let code): return error?.code == code
    case .cancelReason(let reason): return error?.cancelReason == reason
    }
  }
}

/// What `resumeFromData` does when the task it names left no resume data.
public enum ResumeFallback: String, Sendable, CaseIterable {
  /// Nothing but the `app.resumeDataUnavailable` note: the app gives up on the download.
  case skip
  /// A new download of the original task's URL in its session, from zero.
  case download
}

/// One entry of the timeline.
public struct TimelineEntry: Sendable {
  public var at: SimTime
  public var action: TimelineAction
  /// JSON path of the entry in the file (`timeline[3]`), for messages.
  public var path: String
  public init(at: SimTime, action: TimelineAction, path: String) {
    self.at = at
    self.action = action
    self.path = path
  }
}

/// What happens at a timeline entry: a user or system action, or an app action.
public enum TimelineAction: Sendable {
  case launch
  case background
  case terminate
  case forceQuit
  /// The device restarts (behavior.md, "Device restart").
  case reboot
  case app(AppAction)
}

/// When a task may begin: an instant, or a duration after the action that creates it (`+30s`).
public enum InstantSpec: Hashable, Sendable {
  case absolute(SimTime)
  case relative(SimDuration)

  public func resolve(now: SimTime) -> SimTime {
    switch self {
    case .absolute(let t): return t
    case .relative(let d): return now + d
    }
  }
}

/// The fields shared by `download` and `upload`.
public struct TaskRequest: Sendable {
  public var session: String
  public var url: String
  /// The scenario's handle for the task; may contain `{n}` inside reactions.
  public var name: String
  public var earliestBegin: InstantSpec?
  public var expectsToSend: Int64?
  public var expectsToReceive: Int64?
  /// `taskDescription`.
  public var description: String?
  /// 0...1 like `URLSessionTask.priority`; default 0.5.
  public var priority: Double?
  /// The request's own `allowsConstrainedNetworkAccess`; nil leaves the session's.
  public var allowsConstrainedNetworkAccess: Bool?
  /// A timeline `download`/`upload` with `count` creates that many tasks at once, numbering
  /// `{n}` in `name`, `url` and `description` from `firstNumber` (seed 003's 256 images).
  public var count: Int
  /// The number `{n}` takes for the first of the `count` tasks (default 1).
  public var firstNumber: Int

  public init(
    session: String, url: String, name: String, earliestBegin: InstantSpec? = nil,
    expectsToSend: Int64? = nil,
    expectsToReceive: Int64? = nil, description: String? = nil, priority: Double? = nil, count: Int = 1,
    firstNumber: Int = 1
  ) {
    self.session = session
    self.url = url
    self.name = name
    self.earliestBegin = earliestBegin
    self.expectsToSend = expectsToSend
    self.expectsToReceive = expectsToReceive
    self.description = description
    self.priority = priority
    self.count = count
    self.firstNumber = firstNumber
  }
}

/// Where an upload's body comes from.
public enum UploadSource: String, Sendable, CaseIterable {
  case file, data
}

/// Actions of the app; valid only while the app is running.
public enum AppAction: Sendable {
  case download(TaskRequest)
  case upload(TaskRequest, from: UploadSource, size: Int64)
  case cancel(task: String, produceResumeData: Bool)
  /// `suspend()` on a task: it stops (no traffic, no timeouts) until a `resume` balances it.
  case suspend(task: String)
  /// `resume()` on a task the app suspended.
  case resume(task: String)
  /// On the timeline, `count` resumes that many numbered tasks (`{n}` in `task` and `name`,
  /// from `firstNumber`), as `count` does for `download` and `upload`.
  case resumeFromData(
    task: String, name: String, withoutResumeData: ResumeFallback = .skip, count: Int = 1,
    firstNumber: Int = 1)
  case getAllTasks(session: String)
  case invalidate(session: String, cancelTasks: Bool)
  /// `beginBackgroundTask(withName:expirationHandler:)`: keep running in the background.
  case beginBackgroundTask(name: String)
  /// `endBackgroundTask` for the open assertion of that name.
  case endBackgroundTask(name: String)
  /// `dataTask(with:)` and `resume()`: the body comes to the app in memory.
  case dataTask(TaskRequest)
}
