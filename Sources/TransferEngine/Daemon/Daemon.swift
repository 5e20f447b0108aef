import SimKernel

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The transfer daemon's records: every task and session, the wait queues with their
/// connection counts, and the resume-data registry. Background records outlive the app.
///
/// A value owned by `Simulation`; its state changes only through the methods here, each one an
/// input of the daemon's bookkeeping. Deciding *whether* a task may start is `Admission`'s.
struct Daemon {
  /// Every task ever created, indexed by `uid`.
  private(set) var tasks: [SimURLSessionTask] = []
  /// Tasks created so far (the run budget counts them).
  var taskCount: Int { tasks.count }
  /// Every session record ever made, in creation order (index = `deliver` key).
  private(set) var sessionRecords: [DaemonSession] = []
  /// Background session records by identifier; they outlive the app. Keyed by the identifier's
  /// bytes: on a device, identifiers in two Unicode normalization forms name two sessions.
  private var backgroundSessions: [WrittenKey: DaemonSession] = [:]
  /// Waiting tasks per (session, host) pair, each kept in start order, with its connection
  /// count; indexed by `WaitQueue.Key`, in first-use order.
  private var waitQueues: [WaitQueue] = []
  /// Each queue's pair, "identifier host", by key index.
  private(set) var queueNames: [String] = []
  /// Each queue's key by its pair: the session's record (each session object has its own
  /// connections per host, even two default sessions named alike) and the host by its bytes.
  private var queueKeysByPair: [QueuePair: WaitQueue.Key] = [:]
  /// The key indexes of the queues made or whose connection count changed since the invariant
  /// checker last took them, while invariants are checked: the checker compares only these
  /// queues' counts with the tasks holding their connections, not every queue's.
  private(set) var changedQueues = ChangeNotes()
  private var resumeCounter = 0
  /// Session objects attached to their records so far: an attachment can change a record's
  /// configuration, one of admission's inputs (`Engine.AdmissionInputs`).
  private(set) var attachments = 0
  /// Resume data produced so far, by token: what data handed back must match to be used.
  private var issuedResumeData: [ResumeDataContents] = []
  private var usedResumeData: Set<Int> = []
  /// Whether sessions file their active transfers by host (`DaemonSession.activeUIDs(onHost:)`):
  /// only for a server with many faults, the only reader; the filing costs every transfer's start
  /// and end a hashed host (5% of `bench fleet`'s instructions).
  var filesActiveByHost = false
  /// The one timer that re-decides waits at a start date or the rate limiter's expiry.
  private(set) var reevaluation: (at: SimTime, handle: EventHandle)?
  /// The queues a full admission pass need not visit (`ParkedQueues`): each change of a queue
  /// below tells it.
  var parking = ParkedQueues()
  /// The records that may hold delegate events or tasks in the app's process (`SessionWorkIndex`),
  /// kept by the records.
  let sessionWork = SessionWorkIndex()

  // MARK: Records

  /// A new session record; a background one is found again by its identifier.
  /// `registers` false for a session that could not connect (-995, -996): it keeps its own
  /// record, and the identifier stays with the process that holds it. `simulation` is nil only
  /// in a rule's table test, which builds an `Engine` alone.
  mutating func addSession(
    _ configuration: SessionConfiguration, simulation: Simulation?, registers: Bool = true
  ) -> DaemonSession {
    let record = DaemonSession(
      identifier: configuration.identifier, configuration: configuration, index: sessionRecords.count,
      simulation: simulation, filesActiveByHost: filesActiveByHost, work: sessionWork)
    sessionRecords.append(record)
    if configuration.kind != .background { sessionWork.defaultSessions.insert(record.index) }
    if configuration.kind == .background && registers {
      backgroundSessions[WrittenKey(configuration.identifier)] = record
    }
    return record
  }

  /// The background session record of `identifier` (compared by its bytes), if one was made.
  func backgroundSession(_ identifier: String) -> DaemonSession? {
    backgroundSessions[WrittenKey(identifier)]
  }

  /// A session object was attached to its record (`DaemonSession.attach`).
  mutating func sessionAttached() { attachments += 1 }

  /// The simulation ends and the app's process with it: every record drops its app session
  /// object, and each object its delegate, as at a termination (`Simulation.deinit`).
  func endAppSessions() {
    for record in sessionRecords { record.detachFromApp() }
  }

  /// The task numbered `uid`.
  func task(_ uid: Int32) -> SimURLSessionTask { tasks[Int(uid)] }

  /// The uid the next task gets (`TaskTable.add` numbers it; `addTask` checks the two agree).
  var nextUID: Int32 { Int32(tasks.count) }

  mutating func addTask(_ task: SimURLSessionTask) {
    precondition(task.uid == nextUID, "internal inconsistency: task uid \(task.uid) out of order")
    tasks.append(task)
  }

  /// The session records with transfers holding connections, in the order they were made (the
  /// others have nothing a network change could cut), from `SessionWorkIndex.transferring`.
  var sessionsWithTransfers: [DaemonSession] {
    var records: [DaemonSession] = []
    sessionWork.transferring.forEach { records.append(sessionRecords[$0]) }
    return records
  }

  /// Tasks connecting or moving bytes, in uid order: the transfers a network change, a drop or
  /// stall fault, or a restart can cut. Gathered from the lists of active transfers of the
  /// sessions that have some, which the connection limits keep short, not from every unfinished
  /// task or every session: a network that changes often under a long queue, or with thousands
  /// of sessions, would otherwise walk them all at each change.
  func activeTransfers() -> [SimURLSessionTask] {
    var uids: [Int32] = []
    sessionWork.transferring.forEach { uids.append(contentsOf: sessionRecords[$0].activeUIDs) }
    uids.sort()
    return uids.map { tasks[Int($0)] }
  }

  /// `activeTransfers()` that `target` applies to, from the sessions' lists by host: a server
  /// with a stall per host looked at every transfer at every stall's start and end.
  func activeTransfers(matching target: FaultTarget) -> [SimURLSessionTask] {
    let host: String
    switch target {
    case .host(let name): host = name
    case .url(let url): host = url.host
    }
    var uids: [Int32] = []
    sessionWork.transferring.forEach { index in
      for uid in sessionRecords[index].activeUIDs(onHost: host)
      where target.matches(tasks[Int(uid)].currentURL) {
        uids.append(uid)
      }
    }
    uids.sort()
    return uids.map { tasks[Int($0)] }
  }

  /// The next `resume()` order number.
  mutating func nextResumeSequence() -> Int {
    resumeCounter += 1
    return resumeCounter
  }

  /// New resume data with a fresh token (from 1), recorded so it can be recognised later.
  mutating func issueResumeData(
    url: SimURL, offset: Int64, validator: String, sessionIdentifier: String, upload: UploadResumeInfo? = nil
  ) -> ResumeDataContents {
    let contents = ResumeDataContents(
      token: issuedResumeData.count + 1, url: url, offset: offset, validator: validator,
      sessionIdentifier: sessionIdentifier, upload: upload)
    issuedResumeData.append(contents)
    return contents
  }

  /// Resume data the app handed back, checked against what this daemon issued: garbage,
  /// another format version, or data it never produced (another run's, edited) is an error.
  func recognise(_ data: Data) -> Result<ResumeDataContents, ResumeDataError> {
    let contents: ResumeDataContents
    do {
      contents = try ResumeDataContents(data)
    } catch {
      return .failure(error)
    }
    guard contents.token <= issuedResumeData.count, issuedResumeData[contents.token - 1] == contents else {
      return .failure(.stale)
    }
    return .success(contents)
  }

  /// Records that resume data was used; true when it had been used before (single use [Q]).
  mutating func useResumeData(_ token: Int) -> Bool {
    !usedResumeData.insert(token).inserted
  }

  // MARK: Wait queues and connections

  /// The task's (session, host) pair as the queues name it: "identifier host".
  func queueName(_ task: SimURLSessionTask) -> String {
    task.session.identifier + " " + task.currentURL.host
  }

  /// The queue of the task's current pair, if a task of it was ever queued.
  func queueKey(_ task: SimURLSessionTask) -> WaitQueue.Key? { queueKeysByPair[QueuePair(task)] }

  /// The pair the queue `key` holds, for messages.
  func queueName(_ key: WaitQueue.Key) -> String { queueNames[Int(key.index)] }

  /// How many queues there are: their keys are 0 up to it, in the order their pairs were first
  /// used (the order of full passes).
  var waitQueueCount: Int32 { Int32(waitQueues.count) }

  /// Connections the pair `key` holds.
  func running(_ key: WaitQueue.Key) -> Int { waitQueues[Int(key.index)].running }

  func hasWaiting(_ key: WaitQueue.Key) -> Bool { !waitQueues[Int(key.index)].isEmpty }

  /// The known-blocked run of `key` when it holds every task waiting there and its earliest end
  /// is known exactly (`WaitQueue.wholeBlockedRun`); nil when a full pass must walk the queue.
  func wholeQueueBlockedRun(_ key: WaitQueue.Key) -> WaitQueue.BlockedRun? {
    waitQueues.withUnsafeBufferPointer { queues in queues[Int(key.index)].wholeBlockedRun }
  }

  /// The queue of the task's current pair, made (empty) on first use.
  mutating func ensureQueue(for task: SimURLSessionTask) -> WaitQueue.Key {
    let pair = QueuePair(task)
    if let known = queueKeysByPair[pair] { return known }
    let key = WaitQueue.Key(index: Int32(waitQueues.count))
    waitQueues.append(WaitQueue(index: key.index))
    queueNames.append(queueName(task))
    queueKeysByPair[pair] = key
    parking.touch(key.index)
    noteQueueChange(key.index)
    return key
  }

  /// Puts a task in its (session, host) queue, making the queue on first use; returns the key.
  mutating func insert(_ task: SimURLSessionTask) -> WaitQueue.Key {
    let key = ensureQueue(for: task)
    waitQueues[Int(key.index)].insert(task.row)
    parking.touch(key.index)
    return key
  }

  /// Takes a queue out for an admission pass (a placeholder keeps the count), so it is not
  /// copied while it changes; `restore` puts it back.
  mutating func takeQueue(_ key: WaitQueue.Key) -> WaitQueue {
    let i = Int(key.index)
    let queue = waitQueues[i]
    waitQueues[i] = WaitQueue(running: queue.running)
    parking.touch(key.index)
    return queue
  }

  mutating func restore(_ queue: WaitQueue, key: WaitQueue.Key) {
    let i = Int(key.index)
    if queue.running != waitQueues[i].running { noteQueueChange(key.index) }
    waitQueues[i] = queue
  }

  /// A connection of the pair closed; returns the count left.
  mutating func closeConnection(_ key: WaitQueue.Key) -> Int {
    noteQueueChange(key.index)
    return waitQueues[Int(key.index)].closeConnection()
  }

  /// Takes a task out of its wait queue (cancelled or failed while waiting).
  mutating func removeFromQueue(_ task: SimURLSessionTask) {
    guard let key = queueKey(task) else { return }
    waitQueues[Int(key.index)].remove(task.row)
    parking.touch(key.index)
  }

  /// Starts noting the queues whose count changes, every queue so far counting as changed, or stops.
  mutating func noteQueueChanges(_ on: Bool) { changedQueues.turn(on, existing: waitQueueCount) }

  /// The queues noted since the last call (see `changedQueues`), and none from then on.
  mutating func takeChangedQueues() -> [Int32] { changedQueues.take() }

  private mutating func noteQueueChange(_ index: Int32) { changedQueues.note(index) }

  // MARK: Re-evaluation timer

  /// Whether a re-evaluation timer for `time` is needed (none armed at or before it).
  func needsReevaluation(at time: SimTime) -> Bool {
    if let armed = reevaluation, armed.at <= time { return false }
    return true
  }

  /// Records the armed timer (the caller cancelled the one it replaces).
  mutating func armedReevaluation(at time: SimTime, handle: EventHandle) { reevaluation = (time, handle) }

  /// The timer fired.
  mutating func reevaluationFired() { reevaluation = nil }
}

/// A wait queue's (session, host) pair: the session's record and the host's bytes. Hashed where
/// the host lies, with no name string built per lookup.
private struct QueuePair: Hashable {
  let session: Int
  let host: WrittenKey

  init(_ task: SimURLSessionTask) {
    session = task.session.index
    host = WrittenKey(task.currentURL.host)
  }
}
