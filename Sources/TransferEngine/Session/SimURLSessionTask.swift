import SimKernel

/// Mirrors `URLSessionTask` (download and upload tasks): the app's handle on a task.
///
/// It keeps what the app gave it (its kind, URL, name and the properties the app may set) and
/// reads everything else from its row of the engine's `TaskTable` (`TaskParts`), which
/// only the engine changes (`Engine.tasks[task]`). It holds the table strongly, so a task read
/// after its `Simulation` is gone still answers.
public final class SimURLSessionTask {
  /// `URLSessionTask.State`.
  public enum State: String, Sendable {
    /// Resumed and not ended, whether moving bytes or waiting to.
    case running
    /// Made and not yet resumed, or stopped by the app's `suspend()`.
    case suspended
    /// Cancelled, with the cancellation not yet delivered.
    case canceling
    /// Ended: finished, failed or cancelled.
    case completed
  }

  /// What kind of transfer.
  public enum Kind: Hashable, Sendable {
    /// A download to a file, handed over by `didFinishDownloadingTo`.
    case download
    /// An upload of `size` bytes, from a file (survives the app) or from data in memory.
    case upload(fromFile: Bool, size: Int64)
    /// A data task: a GET whose body is handed to the app in memory (`didReceiveData`).
    case data
  }

  // MARK: Identity, and what admission reads (from the task's row)
  //
  // A full admission pass reads every waiting task, and over a long queue its time goes to
  // fetching each task's memory: it reads the rows of `TaskTable` only (`WaitQueue` holds rows),
  // which lie side by side, so the facts it needs are kept there too (`TaskParts`).

  /// Dense number across the whole simulation: link flow id and event key.
  let uid: Int32
  /// `uid` for the bridge, which keeps what it knows of each task (the app's request) in an
  /// array at this index.
  @_spi(Bridge) public var tableIndex: Int { Int(uid) }
  unowned let session: DaemonSession
  /// True when the app created it while not in the foreground (rate limiter, discretionary).
  let createdInBackground: Bool
  let isDiscretionary: Bool
  /// The request's own `allowsConstrainedNetworkAccess` (`URLRequest`, iOS 13+): false keeps this
  /// task off Low Data Mode interfaces even when its session allows them. A request may be
  /// stricter than its session, never looser (behavior.md, "When a task may start"). Kept in
  /// the task's row, where admission reads it.
  public var allowsConstrainedNetworkAccess: Bool {
    get { row.pointee.allowsConstrainedNetworkAccess }
    set {
      table[self].allowsConstrainedNetworkAccess = newValue
      admissionInputChanged()
    }
  }
  /// No start before this time (background sessions); nil starts when possible. Kept in the
  /// task's row, where admission reads it.
  public var earliestBeginDate: SimTime? {
    get { row.pointee.earliestBeginDate }
    set {
      table[self].earliestBeginDate = newValue
      admissionInputChanged()
    }
  }
  /// The app changed one of admission's inputs of this task: the wait queues decide their
  /// blocked tasks again if it waits (`TaskTable.taskInputsChanged`).
  private func admissionInputChanged() { table.taskInputsChanged(waiting: row.pointee.machine.isWaiting) }
  /// Where this task's parts lie in the engine's `TaskTable` (a row never moves).
  let row: UnsafeMutablePointer<TaskParts>
  /// The table that holds the row, kept alive by every task the app may still hold.
  private let table: TaskTable

  // MARK: URLSessionTask's public face

  /// Numbered from 1 in each session, as URLSession does.
  public let taskIdentifier: Int
  /// Download, upload or data.
  public let kind: Kind
  /// The URL the task was made with.
  public let originalURL: SimURL
  /// The URL now being fetched: the last redirect's target, else `originalURL`.
  public var currentURL: SimURL { record.currentURL }
  /// App data that survives relaunches (seed 003 keeps JSON here).
  public var taskDescription: String?
  /// The app's estimate of the bytes it will send, as the real property: the size a
  /// discretionary transfer is judged by (`Engine.discretionarySize`).
  public var countOfBytesClientExpectsToSend: Int64? {
    didSet { admissionInputChanged() }
  }
  /// The app's estimate of the bytes it will receive, as the real property (see above).
  public var countOfBytesClientExpectsToReceive: Int64? {
    didSet { admissionInputChanged() }
  }
  /// 0...1, default 0.5 (`URLSessionTask.defaultPriority`); higher starts first. Kept in the
  /// task's row, where the wait queues' order reads it.
  public var priority: Double {
    get { row.pointee.priority }
    set { table[self].priority = newValue }
  }
  /// Running, suspended, canceling or completed, as `URLSessionTask.state`.
  public var state: State { record.state }
  /// Bytes of the body received so far, counting those a resumed download started with.
  public var countOfBytesReceived: Int64 { bytes.received }
  /// Bytes of an upload's body sent so far.
  public var countOfBytesSent: Int64 { bytes.sent }
  /// The body's size once the response gives it; -1 before (`NSURLSessionTransferSizeUnknown`).
  public var countOfBytesExpectedToReceive: Int64 { bytes.expectedToReceive }
  /// The HTTP status of the response, once there is one.
  public var statusCode: Int? { record.statusCode }
  /// The response's headers as the server model has them when the response arrives:
  /// `Content-Length`, `ETag`, `Last-Modified`, `Accept-Ranges` (for lookups, not for output order).
  public var responseHeaders: [String: String] { record.responseHeaders }
  /// Set when the task completed with an error.
  public var error: SimURLError? { record.error }

  /// The scenario's handle for the task (trace `task=`); defaults to `<session>#<taskIdentifier>`.
  public let name: String
  /// The identifier of the session the task belongs to. Kept, not read from the session: a task
  /// the app holds after its `Simulation` is gone still answers (the session is not kept alive).
  public let sessionIdentifier: String

  // MARK: The daemon's record, read from the task's row in `TaskTable`

  /// Bytes moved and then thrown away by restarts at zero.
  public var bytesWasted: Int64 { bytes.wasted }
  /// Bytes moved on the wire by every attempt, both directions (byte accounting).
  public var bytesOnWire: Int64 { bytes.onWire }
  /// Bytes already on disk from the resume data this task continued from.
  var inheritedBytes: Int64 { bytes.inherited }
  /// Connection attempts so far (1 for the first start).
  var attempts: Int { machine.attempts }

  // Read-only views of the task's row; rules change it through `Engine.tasks[task]`.

  /// Where the task is in its life (`TaskParts.machine`).
  var machine: TaskStateMachine {
    _read { yield row.pointee.machine }
  }
  /// Its `willBeginDelayedRequest` question (`TaskParts.delayedRequest`).
  var delayedRequest: DelayedRequestStage { row.pointee.delayedRequest }
  /// A download's request method, upper case (`TaskParts.httpMethod`).
  var httpMethod: String { row.pointee.httpMethod }
  /// What the task moved, kept and wasted (`TaskParts.bytes`).
  var bytes: TransferBytes {
    _read { yield row.pointee.bytes }
  }
  /// URL, response, ending, start order, connection slot and timers (`TaskParts.record`).
  var record: TaskRecord {
    _read { yield row.pointee.record }
  }
  /// Authentication with the server (`TaskParts.challenge`).
  var challenge: ChallengeState {
    _read { yield row.pointee.challenge }
  }
  var redirectsInARow: Int { record.redirectsInARow }
  var resumeSequence: Int { record.resumeSequence }
  var resourceTimeoutHandle: EventHandle? { record.resourceTimeoutHandle }
  var requestTimeoutHandle: EventHandle? { record.requestTimeoutHandle }
  var resumeFrom: ResumeDataContents? { record.resumeFrom }
  var connectionKey: WaitQueue.Key? { record.connectionKey }
  var cancelReason: SimURLError.CancelReason? { record.cancelReason }

  /// A new task, numbered next in `table`, whose row it adds.
  init(
    in table: TaskTable, taskIdentifier: Int, kind: Kind, url: SimURL, session: DaemonSession, name: String?,
    createdInBackground: Bool, resumeFrom: ResumeDataContents?
  ) {
    let uid = Int32(table.count)
    let isDiscretionary = session.configuration.isDiscretionary || createdInBackground
    self.uid = uid
    self.table = table
    self.row = table.add(
      uid: uid, url: url, resumeFrom: resumeFrom, session: session, createdInBackground: createdInBackground,
      isDiscretionary: isDiscretionary)
    self.taskIdentifier = taskIdentifier
    self.kind = kind
    self.originalURL = url
    self.session = session
    self.sessionIdentifier = session.identifier
    self.name = name ?? "\(session.identifier)#\(taskIdentifier)"
    self.createdInBackground = createdInBackground
    self.isDiscretionary = isDiscretionary
  }

  /// The session's configuration with this request's stricter network access applied: what
  /// admission and the network rules read for this task.
  var effectiveConfiguration: SessionConfiguration {
    var configuration = session.configuration
    if !allowsConstrainedNetworkAccess { configuration.allowsConstrainedNetworkAccess = false }
    return configuration
  }

  var isDownload: Bool { kind == .download }
  /// A GET that fetches the resource's body (a download or a data task), not an upload.
  var fetchesBody: Bool { kind == .download || kind == .data }
  /// A background session's task that lives in the app's memory (a data task, an upload from
  /// data): it fails with -997 when the process is gone.
  var needsAppProcess: Bool {
    switch kind {
    case .data, .upload(fromFile: false, _): return true
    case .download, .upload: return false
    }
  }
  /// The name `task.created` gives the kind.
  var kindName: String {
    switch kind {
    case .download: return "download"
    case .upload: return "upload"
    case .data: return "data"
    }
  }
  var isFinished: Bool { machine.isDone }
  var uploadSize: Int64 {
    if case .upload(_, let size) = kind { return size }
    return 0
  }
}
