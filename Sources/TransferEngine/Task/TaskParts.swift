/// One task's engine state: its phase, its bytes, its record, its authentication and its
/// delayed-request question. A row of `TaskTable`, changed in place through
/// `Engine.tasks[task]`; the app's `SimURLSessionTask` only reads it.
struct TaskParts {
  // The row's first 64 bytes hold what a full admission pass reads of every waiting task, so a
  // pass over a long queue reads one cache line a task, and rows only (`WaitQueue` holds rows,
  // not handles; `TaskTable` aligns them): `uid` to the start of `machine`'s `startedAt`. The
  // task's handle keeps the same facts; the properties the app may set live here, not there.

  /// The task's `uid`, to find its handle (`Daemon.task(_:)`) when the pass acts on it.
  let uid: Int32
  /// Created while the app was not in the foreground (rate limiter, discretionary).
  let createdInBackground: Bool
  let isDiscretionary: Bool
  /// The request's own `allowsConstrainedNetworkAccess`, set by the app (`SimURLSessionTask`).
  var allowsConstrainedNetworkAccess = true
  /// Whether `startNanoseconds` holds a start date (a `SimTime?` would take 16 bytes here).
  private var hasStartDate = false
  /// The session whose list of active transfers `machine` keeps, unretained: only the engine
  /// changes a row, while `Daemon` holds every session; a row read after its simulation is gone
  /// never touches it. No reference count is taken for the row nor for each call
  /// (`_withUnsafeGuaranteedRef`).
  private let session: Unmanaged<DaemonSession>
  private var startNanoseconds: Int64 = 0
  /// `machine`'s storage: its state and first start come first (`TaskStateMachine`).
  private var phase = TaskStateMachine()

  /// No start before this time, set by the app (`SimURLSessionTask.earliestBeginDate`).
  var earliestBeginDate: SimTime? {
    get { hasStartDate ? SimTime(nanoseconds: startNanoseconds) : nil }
    set {
      hasStartDate = newValue != nil
      startNanoseconds = newValue?.nanoseconds ?? 0
    }
  }
  /// Where the task is in its life; the one source of its phase. A change that starts or ends
  /// the transfer (`isActive`) updates the session's list of active transfers as it ends.
  var machine: TaskStateMachine {
    _read { yield phase }
    _modify {
      defer {
        let active = phase.isActive
        if active != holdsConnection {
          holdsConnection = active
          session._withUnsafeGuaranteedRef { session in
            session.transferActivityChanged(uid: uid, active: active)
            // The host is read only for a session that files by it (a server with many faults).
            if session.filesActiveByHost {
              session.fileActiveTransfer(uid: uid, active: active, host: record.currentURL.host)
            }
          }
        }
      }
      yield &phase
    }
  }
  /// `machine.startedAt == nil` and `machine.tracedWaitReason`, read from the storage in place:
  /// a full admission pass reads both for every waiting task, and reading them through
  /// `machine` copied the whole machine each time.
  var neverStarted: Bool { phase.startedAt == nil }
  var tracedWaitReason: SimURLSessionTask.WaitReason? { phase.tracedWaitReason }

  /// `machine.isActive` as of the last change, for the session's list of active transfers.
  private var holdsConnection = false

  /// A redirect was followed (`TaskRecord.redirected`); a transfer holding a connection moves to
  /// the new host in the session's list of active transfers by host.
  mutating func redirected(to url: SimURL) { changeURL { $0.redirected(to: url) } }

  /// The app answered a delayed request with a new one (`TaskRecord.requestReplaced`).
  mutating func requestReplaced(by url: SimURL) { changeURL { $0.requestReplaced(by: url) } }

  /// The only ways `record.currentURL` changes after creation: the session files its active
  /// transfers by host (`DaemonSession.activeUIDs(onHost:)`), so a move must be told.
  private mutating func changeURL(_ change: (inout TaskRecord) -> Void) {
    let old = record.currentURL.host
    change(&record)
    let new = record.currentURL.host
    guard holdsConnection, new != old else { return }
    session._withUnsafeGuaranteedRef { $0.activeHostChanged(uid: uid, from: old, to: new) }
  }
  /// Its `willBeginDelayedRequest` question, for a task with an `earliestBeginDate` (read by the
  /// pass only for such a task).
  var delayedRequest = DelayedRequestStage.notAsked
  /// 0...1, set by the app (`SimURLSessionTask.priority`); higher starts first.
  var priority: Double = 0.5
  /// A download's request method, upper case (`GET` unless the app's request said otherwise):
  /// only a `GET` download can produce resume data [A]. Uploads and data tasks keep `GET` here;
  /// the engine does not model their method.
  var httpMethod = "GET"
  /// What the task moved, kept and wasted.
  var bytes = TransferBytes()
  /// URL, response, ending, start order, connection slot and timers.
  var record: TaskRecord
  /// Authentication with the server: challenges, failures, authenticated URLs.
  var challenge = ChallengeState()
  /// The task's key in its wait queue's known-blocked run (`KnownBlockedRun`), 0 when not filed.
  var runKey: UInt64 = 0

  /// The task's session, read without a reference count taken: the admission pass compares it
  /// with the previous task's before it asks anything of it.
  var sessionIdentity: UnsafeMutableRawPointer { session.toOpaque() }
  /// The task's session (alive while its simulation is: `Daemon` holds every session).
  var owner: DaemonSession { session.takeUnretainedValue() }

  init(
    uid: Int32, record: TaskRecord, session: DaemonSession, createdInBackground: Bool, isDiscretionary: Bool
  ) {
    self.uid = uid
    self.record = record
    self.session = .passUnretained(session)
    self.createdInBackground = createdInBackground
    self.isDiscretionary = isDiscretionary
  }
}

/// Every task's `TaskParts`, one row per task in `uid` order.
///
/// `Engine` owns it (`Engine.tasks`) and rules change a task through it, in place:
/// `engine.tasks[task].machine.admit(at:)`. It is a class so that each `SimURLSessionTask`
/// (the app's handle) can keep it alive and answer `state` or `error` after its `Simulation` is
/// gone; it holds no reference back to a task or a session, so a released simulation still
/// lets go of everything else.
///
/// The rows lie in blocks the table allocates itself, each twice the size of the one before, and
/// a block never moves: a row keeps its address for the table's life, and the task's handle
/// holds that address (`SimURLSessionTask.row`), so a read or a change of a task's parts costs
/// one load more than when they were the task's own properties. Rows of tasks made one after the
/// other lie side by side, each starting a cache line, as the admission pass reads them. Not an `Array`: an array's
/// element read is a copy (every reference in the row retained and released) and its growth
/// moves the rows. `@exclusivity(unchecked)` as `Engine`'s state: one thread, and no app code
/// runs while a row is being added or changed.
final class TaskTable {
  /// The first block's rows; block `k` holds `firstBlock << k`.
  private static let firstBlock = 16
  /// Bytes from one row to the next: the row's size rounded up to whole cache lines, so every
  /// row starts a line (blocks are aligned to 64) and its first 64 bytes are one line.
  private static let rowBytes = (MemoryLayout<TaskParts>.stride + 63) & ~63
  @exclusivity(unchecked) private var blocks: [UnsafeMutableRawPointer] = []
  /// Rows in use in the last block.
  @exclusivity(unchecked) private var usedInLast = 0
  /// Tasks created so far; the next task's `uid`.
  @exclusivity(unchecked) private(set) var count = 0
  /// Bumped when the app changes a waiting task's input to admission (its constrained-network
  /// access, start date or expected sizes), so that the wait queues check their blocked tasks
  /// again (`KnownBlockedRun`).
  @exclusivity(unchecked) private(set) var waitingInputsVersion: UInt64 = 0

  /// The uids of the rows added or changed since the invariant checker last took them, while
  /// invariants are checked: the checker reads only these tasks after an event.
  @exclusivity(unchecked) private(set) var changedRows = ChangeNotes()

  /// Starts noting changed rows, every row so far counting as changed, or stops.
  func noteChanges(_ on: Bool) { changedRows.turn(on, existing: Int32(count)) }

  /// Notes a change of `uid`'s row made through its address rather than this table.
  @inline(__always) func noteChange(_ uid: Int32) { changedRows.note(uid) }

  /// The rows changed since the last call (see `changedRows`), and none from then on.
  func takeChangedRows() -> [Int32] { changedRows.take() }

  /// The app changed an input to admission of a task; `waiting` when the task is in a wait queue.
  func taskInputsChanged(waiting: Bool) {
    if waiting { waitingInputsVersion &+= 1 }
  }

  deinit {
    for (index, block) in blocks.enumerated() {
      let used = index == blocks.count - 1 ? usedInLast : Self.firstBlock << index
      // Row by row: a typed `move` is destroyed by specialized code, where `deinitialize(count:)`
      // goes through the runtime's generic destroy.
      for row in 0..<used { _ = Self.row(row, in: block).move() }
      block.deallocate()
    }
  }

  /// Adds the row of a new task, numbered `uid` (the next one), made from its `url` and the
  /// resume data it continues from, and returns the row's lasting address.
  func add(
    uid: Int32, url: SimURL, resumeFrom: ResumeDataContents?, session: DaemonSession,
    createdInBackground: Bool, isDiscretionary: Bool
  ) -> UnsafeMutablePointer<TaskParts> {
    precondition(Int(uid) == count, "internal inconsistency: task uid \(uid) out of order")
    if blocks.isEmpty || usedInLast == Self.firstBlock << (blocks.count - 1) {
      let rows = Self.firstBlock << blocks.count
      blocks.append(UnsafeMutableRawPointer.allocate(byteCount: rows * Self.rowBytes, alignment: 64))
      usedInLast = 0
    }
    let row = Self.row(usedInLast, in: blocks[blocks.count - 1])
    row.initialize(
      to: TaskParts(
        uid: uid, record: TaskRecord(url: url, resumeFrom: resumeFrom), session: session,
        createdInBackground: createdInBackground, isDiscretionary: isDiscretionary))
    usedInLast += 1
    count += 1
    noteChange(uid)
    return row
  }

  /// The `index`th row of `block`, as memory for one `TaskParts`.
  private static func row(_ index: Int, in block: UnsafeMutableRawPointer) -> UnsafeMutablePointer<TaskParts>
  {
    (block + index * rowBytes).bindMemory(to: TaskParts.self, capacity: 1)
  }

  /// A task's parts, read or changed in place.
  subscript(task: SimURLSessionTask) -> TaskParts {
    _read { yield task.row.pointee }
    _modify {
      noteChange(task.uid)
      yield &task.row.pointee
    }
  }
}
