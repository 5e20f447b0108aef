import SimKernel

/// Mirrors `URLSessionTask` (download and upload tasks): what the app holds, and the daemon's
/// record of the transfer. Its state changes only through the simulation.
public final class SimURLSessionTask {
  /// `URLSessionTask.State`.
  public enum State: String, Sendable {
    case running, suspended, canceling, completed
  }

  /// What kind of transfer.
  public enum Kind: Hashable, Sendable {
    case download
    /// An upload of `size` bytes, from a file (survives the app) or from data in memory.
    case upload(fromFile: Bool, size: Int64)
  }

  /// Why a resumed task is not moving bytes right now.
  public enum WaitReason: Hashable, Sendable {
    case earliestBegin
    case rateLimiter
    case discretionary(missing: [String])
    case connectivity
    case cellularNotAllowed
    case expensiveNotAllowed
    case constrainedNotAllowed
    case connectionLimit
    /// Between an interruption and its automatic retry.
    case retryBackoff
    /// A default session's transfer while its app is suspended.
    case appSuspended

    /// The `reason` field of `task.deferred`.
    public var name: String {
      switch self {
      case .earliestBegin: return "earliestBegin"
      case .rateLimiter: return "rateLimiter"
      case .discretionary: return "discretionary"
      case .connectivity: return "connectivity"
      case .cellularNotAllowed: return "cellularNotAllowed"
      case .expensiveNotAllowed: return "expensiveNotAllowed"
      case .constrainedNotAllowed: return "constrainedNotAllowed"
      case .connectionLimit: return "connectionLimit"
      case .retryBackoff: return "retryBackoff"
      case .appSuspended: return "appSuspended"
      }
    }
  }

  /// Where the transfer is in its life; the daemon's view.
  enum Phase: Equatable {
    /// Created, `resume()` not called yet.
    case created
    /// Resumed, waiting for a start condition.
    case waiting
    /// Connecting: one round trip before bytes flow.
    case connecting
    /// Bytes flowing on a link (`up` for an upload body, then `down` for the response).
    case transferring(up: Bool)
    /// Interrupted, waiting for the retry backoff to pass.
    case backoff
    /// Paused with its app (default sessions only).
    case paused
    case done

    /// Connecting or moving bytes: holding a connection.
    var isActive: Bool {
      switch self {
      case .connecting, .transferring: return true
      default: return false
      }
    }
  }

  // MARK: URLSessionTask's public face

  public let taskIdentifier: Int
  public let kind: Kind
  public let originalURL: SimURL
  public internal(set) var currentURL: SimURL
  /// App data that survives relaunches (seed 003 keeps JSON here).
  public var taskDescription: String?
  public var earliestBeginDate: SimTime?
  public var countOfBytesClientExpectsToSend: Int64?
  public var countOfBytesClientExpectsToReceive: Int64?
  /// 0...1, default 0.5 (`URLSessionTask.defaultPriority`); higher starts first.
  public var priority: Double = 0.5
  public internal(set) var state: State = .suspended
  public internal(set) var countOfBytesReceived: Int64 = 0
  public internal(set) var countOfBytesSent: Int64 = 0
  public internal(set) var countOfBytesExpectedToReceive: Int64 = -1
  /// The HTTP status of the response, once there is one.
  public internal(set) var statusCode: Int?
  /// Set when the task completed with an error.
  public internal(set) var error: SimURLError?

  /// The scenario's handle for the task (trace `task=`); defaults to `<session>#<taskIdentifier>`.
  public let name: String
  public var sessionIdentifier: String { session.identifier }

  // MARK: The daemon's record

  /// Dense number across the whole simulation: link flow id and event key.
  let uid: Int32
  unowned let session: DaemonSession
  var phase: Phase = .created {
    didSet {
      if oldValue.isActive != phase.isActive { session.activeTransfers += phase.isActive ? 1 : -1 }
    }
  }
  /// True when the app created it while not in the foreground (rate limiter, discretionary).
  let createdInBackground: Bool
  let isDiscretionary: Bool
  /// Order of `resume()` calls, for fair start order.
  var resumeSequence: Int = 0
  var firstResumedAt: SimTime?
  var startedAt: SimTime?
  var lastWaitReason: WaitReason?
  /// Connection attempts so far (1 for the first start).
  var attempts = 0
  /// Bytes of the body already moved on this attempt's start (resume offset).
  var offset: Int64 = 0
  /// Bytes moved and then thrown away by restarts at zero.
  public internal(set) var bytesWasted: Int64 = 0
  /// Bytes moved on the wire by every attempt, both directions (byte accounting).
  public internal(set) var bytesOnWire: Int64 = 0
  /// Bytes the current link flow had to move when it joined the link.
  var flowBytes: Int64 = 0
  /// Bytes already on disk from the resume data this task continued from.
  var inheritedBytes: Int64 = 0
  /// Bump to invalidate scheduled per-attempt events (connect, retry, progress).
  var generation: UInt32 = 0
  var resourceTimeoutHandle: EventHandle?
  var requestTimeoutHandle: EventHandle?
  /// Resume data this task was created from.
  var resumeFrom: ResumeData?
  /// Size and validator of the resource version being fetched, fixed when the response arrives.
  var fetchingSize: Int64 = 0
  var fetchingValidator: String?
  var responseBodyBytes: Int64 = 0
  /// Last `didWriteData` decile reported (0...10).
  var reportedDecile = 0
  var finishedAt: SimTime?
  /// Set while the server sends nothing to this transfer (a `stall` fault); it holds its
  /// connection but is off the link, and its request idle timer runs.
  var stalledSince: SimTime?
  /// The (session, host) queue whose connection slot the current attempt holds: the host it
  /// started for, which a redirect to another host does not change.
  var connectionKey: String?
  var cancelReason: SimURLError.CancelReason?

  // Invariant bookkeeping (Simulation+Invariants.swift).
  /// Times the task ended (finished, failed, cancelled, lost): must end at 1.
  var endings = 0
  /// Ended by `finish` (the whole response arrived).
  var finishedOK = false
  /// `didComplete` and `didFinishDownloading` calls the app received for this task.
  var completionsDelivered = 0
  var downloadsDelivered = 0

  init(
    uid: Int32, taskIdentifier: Int, kind: Kind, url: SimURL, session: DaemonSession, name: String?,
    createdInBackground: Bool
  ) {
    self.uid = uid
    self.taskIdentifier = taskIdentifier
    self.kind = kind
    self.originalURL = url
    self.currentURL = url
    self.session = session
    self.name = name ?? "\(session.identifier)#\(taskIdentifier)"
    self.createdInBackground = createdInBackground
    self.isDiscretionary = session.configuration.isDiscretionary || createdInBackground
  }

  var isDownload: Bool { kind == .download }
  var isFinished: Bool { phase == .done }
  var uploadSize: Int64 {
    if case .upload(_, let size) = kind { return size }
    return 0
  }
}
