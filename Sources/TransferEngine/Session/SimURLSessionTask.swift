import SimKernel

/// Mirrors `URLSessionTask` (download and upload tasks): what the app holds, and the daemon's
/// record of the transfer. Its state changes only through the simulation.
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

  // MARK: What the admission pass reads, declared first
  //
  // A class's stored properties lie in memory in the order declared. A full admission pass reads
  // these of every waiting task, and over a long queue its time goes to fetching each task's
  // memory: together at the front they share the object's first cache lines.

  /// Dense number across the whole simulation: link flow id and event key.
  let uid: Int32
  unowned let session: DaemonSession
  /// True when the app created it while not in the foreground (rate limiter, discretionary).
  let createdInBackground: Bool
  let isDiscretionary: Bool
  /// The request's own `allowsConstrainedNetworkAccess` (`URLRequest`, iOS 13+): false keeps this
  /// task off Low Data Mode interfaces even when its session allows them. A request may be
  /// stricter than its session, never looser (behavior.md, "When a task may start").
  public var allowsConstrainedNetworkAccess = true
  /// No start before this time (background sessions); nil starts when possible.
  public var earliestBeginDate: SimTime?
  /// Where the task is in its life; the one source of its phase.
  ///
  /// `@exclusivity(unchecked)`, as the task's other component states and the `Simulation`'s:
  /// the engine is single-threaded and never calls out while one of these is being changed (app
  /// code runs only from the facade, between changes), so the runtime check at each access,
  /// about a fifth of a run's instructions, would guard nothing.
  @exclusivity(unchecked) var machine = TaskStateMachine() {
    // No `oldValue`: the machine is then changed in place, not copied out and back.
    didSet {
      let active = machine.isActive
      if active != holdsConnection {
        holdsConnection = active
        session.transferActivityChanged(by: active ? 1 : -1)
      }
    }
  }
  /// `machine.isActive` as of the last change, for the session's count of active transfers.
  private var holdsConnection = false
  /// Its `willBeginDelayedRequest` question, for a task with an `earliestBeginDate`.
  var delayedRequest = DelayedRequestStage.notAsked

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
  /// The app's estimate of the bytes it will send, as the real property; the engine ignores it.
  public var countOfBytesClientExpectsToSend: Int64?
  /// The app's estimate of the bytes it will receive, as the real property; the engine ignores it.
  public var countOfBytesClientExpectsToReceive: Int64?
  /// 0...1, default 0.5 (`URLSessionTask.defaultPriority`); higher starts first.
  public var priority: Double = 0.5
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
  /// The identifier of the session the task belongs to.
  public var sessionIdentifier: String { session.identifier }

  // MARK: The daemon's record

  /// What the task moved, kept and wasted.
  @exclusivity(unchecked) var bytes = TransferBytes()
  /// A download's request method, upper case (`GET` unless the app's request said otherwise):
  /// only a `GET` download can produce resume data [A]. Uploads and data tasks keep `GET` here;
  /// the engine does not model their method.
  var httpMethod = "GET"
  /// Bytes moved and then thrown away by restarts at zero.
  public var bytesWasted: Int64 { bytes.wasted }
  /// Bytes moved on the wire by every attempt, both directions (byte accounting).
  public var bytesOnWire: Int64 { bytes.onWire }
  /// Bytes already on disk from the resume data this task continued from.
  var inheritedBytes: Int64 { bytes.inherited }
  /// Connection attempts so far (1 for the first start).
  var attempts: Int { machine.attempts }
  /// Admission must wait for the app's answer before the first start: the task has a start
  /// date and its session's delegate implements `willBeginDelayedRequest`.
  var awaitsDelayedRequestAnswer: Bool {
    earliestBeginDate != nil && delayedRequest != .answered && session.asksDelayedRequests
  }
  /// URL, response, ending, start order, connection slot and timers.
  @exclusivity(unchecked) var record: TaskRecord
  /// Authentication with the server: challenges, failures, authenticated URLs.
  @exclusivity(unchecked) var challenge = ChallengeState()
  var redirectsInARow: Int { record.redirectsInARow }
  var resumeSequence: Int { record.resumeSequence }
  var resourceTimeoutHandle: EventHandle? { record.resourceTimeoutHandle }
  var requestTimeoutHandle: EventHandle? { record.requestTimeoutHandle }
  var resumeFrom: ResumeDataContents? { record.resumeFrom }
  var connectionKey: String? { record.connectionKey }
  var cancelReason: SimURLError.CancelReason? { record.cancelReason }

  init(
    uid: Int32, taskIdentifier: Int, kind: Kind, url: SimURL, session: DaemonSession, name: String?,
    createdInBackground: Bool, resumeFrom: ResumeDataContents?
  ) {
    self.uid = uid
    self.taskIdentifier = taskIdentifier
    self.kind = kind
    self.originalURL = url
    self.record = TaskRecord(url: url, resumeFrom: resumeFrom)
    self.session = session
    self.name = name ?? "\(session.identifier)#\(taskIdentifier)"
    self.createdInBackground = createdInBackground
    self.isDiscretionary = session.configuration.isDiscretionary || createdInBackground
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
