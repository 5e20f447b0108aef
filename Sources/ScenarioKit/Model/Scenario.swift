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
  /// The scenario's `name`, used for its golden trace, its report page and in every message.
  public var name: String
  /// The `description`: the story the scenario tells, printed before a run.
  public var description: String
  /// The seed a run uses unless given another (`bgsim run --seed`).
  public var seed: UInt64
  /// Bound on simulated time; the run ends earlier once nothing is pending.
  public var duration: SimDuration
  /// `startsAt`: the local date and time the run starts (`2026-03-01T21:00:00`), which lets
  /// instants be written as times of day; nil when the scenario counts from zero only.
  public var startsAt: String?
  /// The device: its network and power over time, Background App Refresh, the clock.
  public var device: DeviceModel
  /// The server: its resources, their changes over time, and faults.
  public var server: ServerModel
  /// The `policy` knobs, behavior.md's defaults overridden by the file.
  public var policy: Policy
  /// The scripted app: its sessions and how it behaves.
  public var app: AppSpec
  /// Sorted by time, stable for equal times (file order).
  public var timeline: [TimelineEntry]
  /// The `expect` items checked against the trace at the end of the run.
  public var expectations: [Expectation]
  /// The `random` section: conditions drawn from the run's seed (see `RandomConditions`).
  public var random: RandomConditions?

  /// A scenario with every part given; `ScenarioLoader` makes them from files.
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
  /// The sessions the app makes at each launch, in order.
  public var sessions: [SessionConfiguration]
  /// How the app answers the system: what it does right, what it gets wrong, its reactions.
  public var behavior: AppBehavior
  /// The app's extensions (`app.extensions`): each a process of its own that the timeline opens
  /// and closes, with the background sessions it makes.
  public var extensions: [ExtensionSpec] = []
  /// An app with these sessions and this behaviour.
  public init(sessions: [SessionConfiguration] = [], behavior: AppBehavior = .init()) {
    self.sessions = sessions
    self.behavior = behavior
  }
}

/// One of the app's extensions (a share extension, say) as the scenario scripts it: a process of
/// its own, with its background sessions (behavior.md, "App extensions").
public struct ExtensionSpec: Sendable {
  /// The extension's name, as timeline entries name it (`"extension": "Share"`).
  public var name: String
  /// The background sessions it makes, on first use in each of its runs.
  public var sessions: [SessionConfiguration]
  /// An extension named `name` with these sessions.
  public init(name: String, sessions: [SessionConfiguration]) {
    self.name = name
    self.sessions = sessions
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

  /// The app makes its sessions again at every launch (false: a background launch finds none).
  public var recreatesSessionsOnLaunch: Bool
  /// The app keeps the `handleEvents` completion handler (false: it drops it and cannot call it).
  public var storesCompletionHandler: Bool
  /// When the app calls the completion handler.
  public var callsCompletionHandler: CompletionHandlerTiming
  /// `didFinishDownloadingTo` moves the file (false: the system deletes it, and the run lints `downloadedFileLost`).
  public var movesDownloadedFile: Bool
  /// The expiration handler of a background task ends it (correct); false plays the app that
  /// leaks it, which the watchdog kills.
  public var endsBackgroundTasksOnExpiry: Bool
  /// The app's `on` reactions to delegate calls.
  public var reactions: [Reaction]
  /// `willBeginDelayedRequest`: nil plays a delegate without the method (a delayed task starts
  /// without asking); a list, one that answers with the first entry matching the task, else
  /// `continueLoading`.
  public var delayedRequestAnswers: [DelayedRequestAnswer]?
  /// `didReceiveChallenge`: the scripted delegate implements the challenge methods and answers
  /// with the first entry that matches the task; nil plays a delegate without them.
  public var challengeAnswers: [ChallengeAnswer]?

  /// A behaviour; the defaults play a correct app.
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
    /// `didFinishDownloadingTo`: a download's file was handed over.
    case didFinishDownloading
    /// `didCompleteWithError`: a task ended (filter the outcome with `error`).
    case didComplete
    /// `urlSessionDidFinishEvents`: a woken session's events were all delivered.
    case didFinishEvents
    /// `handleEventsForBackgroundURLSession`: the system woke the app for a session.
    case handleEvents
    /// The app finished launching, by the user or in the background.
    case didLaunch
    /// `didBecomeInvalidWithError`, after the app invalidated a session (error nil).
    case didBecomeInvalid
    /// The launch handler of a `BGContinuedProcessingTask` the app submitted: the system started
    /// it (at once, or when a queued request's turn came). `task` matches its identifier.
    case continuedProcessingStarted

    /// Callbacks about a session or the app, not one task: `{task}` does not apply (nor `task`,
    /// except that `continuedProcessingStarted` matches it against the request's identifier).
    public static let withoutTask: Set<Event> = [
      .didFinishEvents, .handleEvents, .didLaunch, .didBecomeInvalid, .continuedProcessingStarted,
    ]
  }
  /// The delegate call the reaction follows.
  public var event: Event
  /// Task name pattern with `*` wildcards; nil matches every task.
  public var task: String?
  /// What the app does then, in order.
  public var actions: [AppAction]
  /// JSON path of the reaction, for run-time messages (`app.behavior.on[0]`).
  public var path: String
  /// The value `{n}` takes at the reaction's first run; it counts up by one at each run.
  public var firstNumber: Int
  /// The reaction runs at most this many times (nil: every time its event comes).
  public var times: Int?
  /// `didComplete` only: the outcome the reaction follows (nil: any).
  public var error: ErrorFilter?
  /// The app's own time the callback takes after its actions (an unzip, a database write): the
  /// next callbacks wait for it, and a background wake's time is spent by it (`AppContext.spend`).
  public var takes: SimDuration?

  /// A reaction to `event` for tasks matching `task`.
  public init(
    event: Event, task: String? = nil, actions: [AppAction], path: String, firstNumber: Int = 1,
    times: Int? = nil, error: ErrorFilter? = nil, takes: SimDuration? = nil
  ) {
    self.takes = takes
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
  /// When the entry happens.
  public var at: SimTime
  /// The user's, the system's or the app's action at `at`.
  public var action: TimelineAction
  /// JSON path of the entry in the file (`timeline[3]`), for messages.
  public var path: String
  /// An entry doing `action` at `at`, found at `path` in the file.
  public init(at: SimTime, action: TimelineAction, path: String) {
    self.at = at
    self.action = action
    self.path = path
  }
}

/// What happens at a timeline entry: a user or system action, or an app action.
public enum TimelineAction: Sendable {
  /// The user opens the app.
  case launch
  /// The user leaves the app (it goes to the background).
  case background
  /// The system ends the app's process (memory pressure); background transfers go on.
  case terminate
  /// The user force-quits the app: its background tasks are cancelled.
  case forceQuit
  /// The device restarts (behavior.md, "Device restart").
  case reboot
  /// The user stops a continued-processing task from the system's progress UI.
  case cancelContinuedProcessing(identifier: String)
  /// Something the app does (it must be running).
  case app(AppAction)
  /// The user opens the app's extension (a share sheet): its process starts.
  case openExtension(String)
  /// The user leaves the extension: the system ends its process `extensionEndsAfter` later.
  case closeExtension(String)
  /// Something the extension does (it must be running): a `download` or `upload`.
  case inExtension(String, AppAction)
}

/// When a task may begin: an instant, or a duration after the action that creates it (`+30s`).
public enum InstantSpec: Hashable, Sendable {
  /// At this instant of the run.
  case absolute(SimTime)
  /// This long after the action that creates the task.
  case relative(SimDuration)

  /// The instant this stands for, for an action performed at `now`.
  public func resolve(now: SimTime) -> SimTime {
    switch self {
    case .absolute(let t): return t
    case .relative(let d): return now + d
    }
  }
}

/// The fields shared by `download` and `upload`.
public struct TaskRequest: Sendable {
  /// The name of the session (its identifier) that makes the task.
  public var session: String
  /// The URL, one of `server.resources`; may hold `{n}` for numbered tasks.
  public var url: String
  /// The scenario's handle for the task; may contain `{n}` inside reactions.
  public var name: String
  /// `earliestBeginDate`: no start before then (background sessions).
  public var earliestBegin: InstantSpec?
  /// `countOfBytesClientExpectsToSend`, passed to the task.
  public var expectsToSend: Int64?
  /// `countOfBytesClientExpectsToReceive`, passed to the task.
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

  /// A request to `url` in `session`, named `name` in the trace.
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
  /// From a file: the upload survives the app's process.
  case file
  /// From data in memory: in a background session it fails once the process is gone (a lint).
  case data
}

/// Actions of the app; valid only while the app is running.
public enum AppAction: Sendable {
  /// Makes a download task and resumes it.
  case download(TaskRequest)
  /// Makes an upload of `size` bytes from a file or from data, and resumes it.
  case upload(TaskRequest, from: UploadSource, size: Int64)
  /// Cancels a task; with `produceResumeData`, as `cancel(byProducingResumeData:)`.
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
  /// `getAllTasks` on the session; the trace lists the tasks it returns.
  case getAllTasks(session: String)
  /// Invalidates the session: `invalidateAndCancel` when `cancelTasks`, else `finishTasksAndInvalidate`.
  case invalidate(session: String, cancelTasks: Bool)
  /// `beginBackgroundTask(withName:expirationHandler:)`: keep running in the background.
  case beginBackgroundTask(name: String)
  /// `endBackgroundTask` for the open assertion of that name.
  case endBackgroundTask(name: String)
  /// `dataTask(with:)` and `resume()`: the body comes to the app in memory.
  case dataTask(TaskRequest)
  /// `BGTaskScheduler.submit` of a `BGContinuedProcessingTaskRequest` (iOS 26).
  case submitContinuedProcessing(
    identifier: String, title: String, subtitle: String, strategy: ContinuedProcessingStrategy)
  /// Raises the running task's `progress.completedUnitCount` by `add`; sets `totalUnitCount`
  /// when `total` is given.
  case reportContinuedProgress(identifier: String, add: Int64, total: Int64?)
  /// `setTaskCompleted(success:)` on the running continued-processing task.
  case completeContinuedProcessing(identifier: String, success: Bool)
}
