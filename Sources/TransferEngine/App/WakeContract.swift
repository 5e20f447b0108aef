import SimKernel

/// The completion-handler contract of background wakes (behavior.md, "Waking the app and the
/// completion-handler contract"): the wake in progress, whose handlers came back, the
/// `didFinishEvents` gate, the completion-handler timeout, and the one-task-per-wake streak.
///
/// A value owned by `Simulation`; each input returns what the engine must do. It knows nothing
/// of sessions' queues or of the app: the facade asks it and carries out the answer.
struct WakeContract {
  /// The wake in progress: which sessions were told to handle events, and whose handlers came back.
  /// Changed in place (never copied out and back: a wake of thousands of sessions would copy its
  /// sets at every call), and asked by set, so each input costs O(1) however many sessions.
  /// Sessions are told apart by their identifiers' bytes, as the daemon files them.
  private struct Wake: Equatable {
    let number: Int
    /// In the order the app was told, for the verdicts that list them.
    let sessions: [String]
    let members: Set<WrittenKey>
    var handlerCalled: Set<WrittenKey> = []
    var finishedEventsDelivered: Set<WrittenKey> = []
    /// Sessions of the wake whose handler has not come back.
    var outstanding: Int
    var tasksCreated = 0

    init(number: Int, sessions: [String]) {
      self.number = number
      self.sessions = sessions
      members = Set(sessions.map(WrittenKey.init))
      outstanding = members.count
    }
  }

  private var wake: Wake?
  /// Wakes so far, numbered from 1.
  private(set) var wakeCount = 0
  /// A wake check is scheduled and has not run yet.
  private(set) var checkPending = false
  private var oneTaskWakeStreak = 0
  private var oneTaskPerWakeLinted = false

  /// The number of the wake in progress, if any.
  var currentWake: Int? { wake?.number }

  /// Someone asks whether the app is owed a wake: true when a check must be scheduled.
  mutating func requestCheck() -> Bool {
    guard !checkPending else { return false }
    checkPending = true
    return true
  }

  mutating func checkRan() { checkPending = false }

  /// A wake begins for `sessions`; returns its number.
  mutating func begin(sessions: [String]) -> Int {
    wakeCount += 1
    wake = Wake(number: wakeCount, sessions: sessions)
    return wakeCount
  }

  /// The app created a task (counts toward the one-task-per-wake streak).
  mutating func taskCreated() { wake?.tasksCreated += 1 }

  /// The user brought the app to the front: the wake is over without a verdict.
  mutating func enteredForeground() { wake = nil }

  /// True when a session's handler came back before its events were delivered: the rest wait
  /// for the next wake or launch.
  func deliveryHeld(_ identifier: String) -> Bool {
    let session = WrittenKey(identifier)
    guard let wake, wake.members.contains(session) else { return false }
    return wake.handlerCalled.contains(session) && !wake.finishedEventsDelivered.contains(session)
  }

  /// A session of this wake has nothing left to deliver: true (once) when `didFinishEvents` is due.
  mutating func eventsDelivered(_ identifier: String) -> Bool {
    let session = WrittenKey(identifier)
    guard wake?.members.contains(session) == true else { return false }
    return wake!.finishedEventsDelivered.insert(session).inserted
  }

  /// What a completion handler's call means.
  enum HandlerOutcome: Equatable {
    /// Stale (another wake's) or the app is not in the background: nothing changes.
    case ignored
    /// Called before its events were delivered: lint `completionHandlerCalledEarly`, suspend.
    case calledEarly
    /// Every session of the wake has called back: suspend.
    case allCalled
    /// Others are still outstanding.
    case waiting
  }

  mutating func handlerCalled(session identifier: String, wake number: Int, appInBackground: Bool)
    -> HandlerOutcome
  {
    guard wake?.number == number, appInBackground else { return .ignored }
    let session = WrittenKey(identifier)
    let first = wake!.handlerCalled.insert(session).inserted
    if first && wake!.members.contains(session) { wake!.outstanding -= 1 }
    if !wake!.finishedEventsDelivered.contains(session) { return .calledEarly }
    return wake!.outstanding == 0 ? .allCalled : .waiting
  }

  /// The completion-handler timeout of wake `number` fired: the sessions whose handler never
  /// came back (the app is then suspended), or nil when the timer is stale.
  func timedOut(wake number: Int, appInBackground: Bool) -> [String]? {
    guard let current = wake, current.number == number, appInBackground else { return nil }
    return current.sessions.filter { !current.handlerCalled.contains(WrittenKey($0)) }
  }

  /// What the end of a wake revealed.
  struct Ending: Equatable {
    /// The sessions the wake was for (the facade lints those never recreated).
    var sessions: [String]
    /// Set once, when the app has started a single task at each of this many consecutive wakes.
    var oneTaskPerWakeStreak: Int?
  }

  /// The app stopped running: closes the wake, or nil when none was in progress.
  mutating func end() -> Ending? {
    guard let finished = wake else { return nil }
    wake = nil
    oneTaskWakeStreak = finished.tasksCreated == 1 ? oneTaskWakeStreak + 1 : 0
    var ending = Ending(sessions: finished.sessions)
    if oneTaskWakeStreak >= 3 && !oneTaskPerWakeLinted {
      oneTaskPerWakeLinted = true
      ending.oneTaskPerWakeStreak = oneTaskWakeStreak
    }
    return ending
  }
}
