import SimKernel

/// The daemon's record of one session: its tasks, its task numbering, and the delegate events
/// waiting for the app. For a background session it outlives the app's process; the app's
/// `SimURLSession` object attaches to it when the app (re)creates a session with its identifier.
///
/// Its state is written only by the methods below (each one input of the daemon's bookkeeping).
final class DaemonSession {
  let identifier: String
  private(set) var configuration: SessionConfiguration
  var isBackground: Bool { configuration.kind == .background }
  private(set) var nextTaskIdentifier = 1
  /// Every task the session created, in creation order.
  private(set) var tasks: [SimURLSessionTask] = []
  /// Tasks not yet finished.
  private(set) var outstanding = 0
  /// The unfinished tasks in creation order, plus some that finished since the last
  /// `unfinishedTasks()` (compacted lazily: a task finishes once, so each leaves once).
  private var unfinished: [SimURLSessionTask] = []
  /// Those of `unfinished` that live in the app's memory (`needsAppProcess`: data tasks, uploads
  /// from data), kept apart and compacted the same way: a suspension or the end of a process
  /// looks at these alone, not at every unfinished download of a long queue.
  private var unfinishedInApp: [SimURLSessionTask] = []
  /// The daemon's list of records with delegate events or tasks in the app's process, which
  /// this record keeps as `pending` and `unfinishedInApp` change.
  private let work: SessionWorkIndex
  /// The `uid`s of its tasks connecting or moving bytes, in no order (kept by `TaskParts` as a
  /// task's machine changes). A set: a session may have any number of hosts, each with its own
  /// connections, so a transfer's end must not look through the others.
  private(set) var activeUIDs: Set<Int32> = []
  /// How many of its tasks are connecting or moving bytes.
  var activeTransfers: Int { activeUIDs.count }
  /// `activeUIDs` by the host of the URL each fetches, when `filesActiveByHost`: a fault on one
  /// host (a stall that begins or ends) reads that host's transfers, not every one of a server
  /// with a host per file.
  private var activeByHost: [WrittenKey: Set<Int32>] = [:]
  let filesActiveByHost: Bool
  /// Delegate events not yet delivered, in the order they happened.
  private(set) var pending: [DelegateEvent] = []
  /// The questions for the app among `pending` (challenges, delayed requests), in order: every
  /// wake check asks whether the session holds one, and while the app is away `pending` grows
  /// with each finished task, so the check looks through these alone.
  private(set) var pendingQuestions: [DelegateEvent] = []
  /// The app's live session object, while the app has one.
  private(set) var attached: SimURLSession?
  /// The attached session object when the app holds it (not an extension): the one events go to.
  var appSession: SimURLSession? {
    guard let attached, attached.owner == .app else { return nil }
    return attached
  }
  /// An extension holds the session now: its events wait for the extension to end, then go to
  /// the containing app.
  var heldByExtension: Bool {
    guard let attached else { return false }
    return attached.owner != .app && !attached.isInvalidated
  }
  /// A wake is owed: every task finished while the app was away.
  private(set) var wantsWake = false
  /// The last delegate attached implements `willBeginDelayedRequest`: the daemon remembers it
  /// across the app's processes, as it must to know whether to wake the app to ask.
  private(set) var asksDelayedRequests = false
  /// The last delegate attached implements an authentication-challenge method: without one the
  /// daemon answers default handling itself, without asking or waking the app.
  private(set) var asksChallenges = false

  weak var simulation: Simulation?
  /// Set for the record of a session that could not connect (-995, -996): its own, not the
  /// identifier's, so the tasks made in it fail with this error and wake no one.
  private(set) var connectionError: SimURLError.Code?
  /// Position in the daemon's session records (the key of `deliver` events).
  let index: Int

  init(
    identifier: String, configuration: SessionConfiguration, index: Int, simulation: Simulation?,
    filesActiveByHost: Bool = false, work: SessionWorkIndex
  ) {
    self.identifier = identifier
    self.configuration = configuration
    self.index = index
    self.simulation = simulation
    self.filesActiveByHost = filesActiveByHost
    self.work = work
  }

  /// The session could not connect: every task made in it fails with `code`.
  func connectionFailed(_ code: SimURLError.Code) { connectionError = code }

  /// The app (re)created a session object for this record.
  func attach(_ session: SimURLSession) {
    configuration = session.configuration
    attached = session
    if session.owner == .app { work.inExtension.remove(index) } else { work.inExtension.insert(index) }
    asksDelayedRequests = session.delegate?.answersDelayedRequests ?? false
    asksChallenges = session.delegate?.answersChallenges ?? false
  }

  /// The app's process ended: its session object dies with it.
  func detachFromApp() {
    attached?.markInvalidated()
    attached = nil
    work.inExtension.remove(index)
    // `didBecomeInvalidWithError` was owed to the dead process's session objects only.
    pending.removeAll { event in
      if case .didBecomeInvalid = event { return true }
      return false
    }
    if pending.isEmpty { work.pending.remove(index) }
  }

  /// Numbers and records a new task; returns its `taskIdentifier`.
  func nextIdentifier() -> Int {
    defer { nextTaskIdentifier += 1 }
    return nextTaskIdentifier
  }

  func add(_ task: SimURLSessionTask) {
    tasks.append(task)
    unfinished.append(task)
    if task.needsAppProcess {
      unfinishedInApp.append(task)
      work.inApp.insert(index)
    }
    outstanding += 1
  }

  /// The session's tasks not yet finished, in creation order: O(unfinished + finished since the
  /// last call), so a launch or a termination late in a long run does not walk every task ever made.
  func unfinishedTasks() -> [SimURLSessionTask] {
    unfinished.removeAll { $0.isFinished }
    return unfinished
  }

  /// The unfinished tasks that need the app's process (`needsAppProcess`), in creation order:
  /// O(those + finished since the last call).
  func unfinishedTasksNeedingAppProcess() -> [SimURLSessionTask] {
    unfinishedInApp.removeAll { $0.isFinished }
    if unfinishedInApp.isEmpty { work.inApp.remove(index) }
    return unfinishedInApp
  }

  /// One of the session's tasks ended.
  func taskEnded() { outstanding -= 1 }

  /// Task `uid` started (`active`) or stopped connecting or moving bytes.
  func transferActivityChanged(uid: Int32, active: Bool) {
    if active {
      if activeUIDs.insert(uid).inserted && activeUIDs.count == 1 { work.transferring.insert(index) }
    } else if activeUIDs.remove(uid) != nil && activeUIDs.isEmpty {
      work.transferring.remove(index)
    }
  }

  /// The same, under `host`, when the session files its active transfers by host.
  func fileActiveTransfer(uid: Int32, active: Bool, host: String) {
    guard filesActiveByHost else { return }
    if active {
      activeByHost[WrittenKey(host), default: []].insert(uid)
    } else {
      removeActive(uid, host: host)
    }
  }

  /// Active transfer `uid` now fetches from `new` (a redirect).
  func activeHostChanged(uid: Int32, from old: String, to new: String) {
    guard filesActiveByHost else { return }
    removeActive(uid, host: old)
    activeByHost[WrittenKey(new), default: []].insert(uid)
  }

  private func removeActive(_ uid: Int32, host: String) {
    let host = WrittenKey(host)
    guard activeByHost[host]?.remove(uid) != nil, activeByHost[host]?.isEmpty == true else { return }
    activeByHost[host] = nil
  }

  /// The `uid`s of its tasks connecting to or moving bytes from `host`, in no order; all its
  /// active transfers when it does not file them by host.
  func activeUIDs(onHost host: String) -> Set<Int32> {
    filesActiveByHost ? activeByHost[WrittenKey(host)] ?? [] : activeUIDs
  }

  func queue(_ event: DelegateEvent) {
    if pending.isEmpty { work.pending.insert(index) }
    pending.append(event)
    if event.isQuestion { pendingQuestions.append(event) }
  }

  /// Takes the queued events for delivery, oldest first.
  func takePending() -> [DelegateEvent] {
    defer {
      pending.removeAll()
      pendingQuestions.removeAll()
      work.pending.remove(index)
    }
    return pending
  }

  /// Puts back events the app could not take (it stopped running mid-delivery), ahead of any
  /// queued since.
  func putBack(_ events: ArraySlice<DelegateEvent>) {
    pending.insert(contentsOf: events, at: 0)
    if !events.isEmpty { work.pending.insert(index) }
    pendingQuestions.insert(contentsOf: events.filter(\.isQuestion), at: 0)
  }

  func owesWake(_ owed: Bool) { wantsWake = owed }
}

/// A delegate callback the daemon owes the app.
enum DelegateEvent {
  case didResumeAtOffset(SimURLSessionTask, offset: Int64, expectedTotal: Int64)
  /// A download's body is all in (queued only while the app runs): the `didWriteData` at 100%
  /// that comes just before `didFinishDownloadingTo`; traced `delegate.didWriteData`.
  case didWriteData(SimURLSessionTask, bytesWritten: Int64, total: Int64)
  case didFinishDownloading(SimURLSessionTask)
  case didReceiveData(SimURLSessionTask, bytes: Int64)
  /// An upload's body is all sent (queued only while the app runs). Not traced, like the
  /// per-tenth reports before it.
  case didSendBodyData(SimURLSessionTask, bytesSent: Int64, total: Int64)
  case didComplete(SimURLSessionTask, error: SimURLError?)
  /// `didBecomeInvalidWithError` for this session object (not whichever is attached by then):
  /// after the last `didComplete` of an invalidated session; traced `delegate.didBecomeInvalid`.
  case didBecomeInvalid(SimURLSession)
  /// A default session's redirect, for the app to follow or refuse; `generation` names the
  /// attempt that asked, so an answer after that attempt ended is ignored.
  case willPerformHTTPRedirection(SimURLSessionTask, to: SimURL, generation: UInt32)
  /// `willBeginDelayedRequest` for a task that waits for the answer to start.
  case willBeginDelayedRequest(SimURLSessionTask)
  /// An authentication challenge of the attempt `generation`, for the app to answer.
  case didReceiveChallenge(SimURLSessionTask, SimAuthenticationChallenge, generation: UInt32)

  /// A question the app owes an answer to, which can earn its session a wake
  /// (`DaemonSession+Questions.swift`).
  var isQuestion: Bool {
    switch self {
    case .willBeginDelayedRequest, .didReceiveChallenge: return true
    default: return false
    }
  }
}
