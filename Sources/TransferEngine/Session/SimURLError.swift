/// Mirrors `URLError`: the transport errors of behavior.md with their `NSURLError.h` codes.
public struct SimURLError: Error, Hashable, Sendable, CustomStringConvertible {
  public enum Code: Int, CaseIterable, Hashable, Sendable {
    case cancelled = -999
    case timedOut = -1001
    case networkConnectionLost = -1005
    /// More than `Simulation.maxRedirects` redirects in a row (a redirect loop).
    case httpTooManyRedirects = -1007
    case notConnectedToInternet = -1009
    case backgroundSessionRequiresSharedContainer = -995
    case backgroundSessionInUseByAnotherProcess = -996
    case backgroundSessionWasDisconnected = -997

    /// The name the trace and `expect` use (`URLError.Code` case names).
    public var name: String {
      switch self {
      case .cancelled: return "cancelled"
      case .timedOut: return "timedOut"
      case .networkConnectionLost: return "networkConnectionLost"
      case .httpTooManyRedirects: return "httpTooManyRedirects"
      case .notConnectedToInternet: return "notConnectedToInternet"
      case .backgroundSessionRequiresSharedContainer: return "backgroundSessionRequiresSharedContainer"
      case .backgroundSessionInUseByAnotherProcess: return "backgroundSessionInUseByAnotherProcess"
      case .backgroundSessionWasDisconnected: return "backgroundSessionWasDisconnected"
      }
    }
  }

  /// `NSURLErrorBackgroundTaskCancelledReasonKey` values.
  public enum CancelReason: Int, CaseIterable, Hashable, Sendable {
    case userForceQuitApplication = 0
    case backgroundUpdatesDisabled = 1
    case insufficientSystemResources = 2

    public var name: String {
      switch self {
      case .userForceQuitApplication: return "userForceQuitApplication"
      case .backgroundUpdatesDisabled: return "backgroundUpdatesDisabled"
      case .insufficientSystemResources: return "insufficientSystemResources"
      }
    }
  }

  public var code: Code
  /// `NSURLSessionDownloadTaskResumeData` in the error's user info, when the download can resume.
  public var resumeData: ResumeData?
  /// Why the system cancelled a background task, when it did.
  public var cancelReason: CancelReason?

  public init(_ code: Code, resumeData: ResumeData? = nil, cancelReason: CancelReason? = nil) {
    self.code = code
    self.resumeData = resumeData
    self.cancelReason = cancelReason
  }

  public var description: String { "\(code.name) (\(code.rawValue))" }
}

/// The opaque blob `cancel(byProducingResumeData:)` hands back; here its contents are visible
/// to tests. Single use: a second use restarts from zero and is linted.
public struct ResumeData: Hashable, Sendable {
  /// Unique per production, to detect reuse.
  public let token: Int
  public let url: SimURL
  /// Bytes already on disk.
  public let offset: Int64
  /// The validator the range request sends (`If-Range`): the ETag, else Last-Modified.
  public let validator: String
  /// The session the download belonged to.
  public let sessionIdentifier: String
}

/// Misuse of the API that the real system answers with an exception; the simulator throws.
public struct SimAPIMisuse: Error, Hashable, Sendable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
