#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Mirrors `URLError`: the transport errors of behavior.md with their `NSURLError.h` codes.
public struct SimURLError: Error, Hashable, Sendable, CustomStringConvertible {
  /// `URLError.Code` for the errors the engine produces.
  public enum Code: Int, CaseIterable, Hashable, Sendable {
    /// The task was cancelled: by the app, a force quit, or Background App Refresh off.
    case cancelled = -999
    /// A timeout ran out (`timeoutIntervalForRequest` idle, or `timeoutIntervalForResource`).
    case timedOut = -1001
    /// The connection dropped mid-transfer (a default session's network loss).
    case networkConnectionLost = -1005
    /// More than `Simulation.maxRedirects` redirects in a row (a redirect loop).
    case httpTooManyRedirects = -1007
    /// No interface is up (default sessions without `waitsForConnectivity`).
    case notConnectedToInternet = -1009
    /// A background session of an app extension without a shared container.
    case backgroundSessionRequiresSharedContainer = -995
    /// Another process already uses the background session's identifier.
    case backgroundSessionInUseByAnotherProcess = -996
    /// The app was suspended or ended while a task that cannot outlive it ran (data tasks, uploads from data).
    case backgroundSessionWasDisconnected = -997
    /// `NSURLErrorCannotWriteToFile`: what Darwin reports when resume data's partial download
    /// cannot be used; bgsim fails a task made from garbage or stale resume data with it.
    case cannotWriteToFile = -3003

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
      case .cannotWriteToFile: return "cannotWriteToFile"
      }
    }
  }

  /// `NSURLErrorBackgroundTaskCancelledReasonKey` values.
  public enum CancelReason: Int, CaseIterable, Hashable, Sendable {
    /// The user force-quit the app.
    case userForceQuitApplication = 0
    /// Background App Refresh is off for the app.
    case backgroundUpdatesDisabled = 1
    /// The system ran short of resources.
    case insufficientSystemResources = 2

    /// The name the trace and `expect` use (the key's documented reason names).
    public var name: String {
      switch self {
      case .userForceQuitApplication: return "userForceQuitApplication"
      case .backgroundUpdatesDisabled: return "backgroundUpdatesDisabled"
      case .insufficientSystemResources: return "insufficientSystemResources"
      }
    }
  }

  /// `URLError.NetworkUnavailableReason`: why an allowed interface was missing (iOS 13+).
  public enum NetworkUnavailableReason: Int, CaseIterable, Hashable, Sendable {
    /// The request does not allow cellular access.
    case cellular = 0
    /// The request does not allow expensive networks.
    case expensive = 1
    /// The request does not allow constrained (Low Data Mode) networks.
    case constrained = 2

    /// The reason as the trace writes it.
    public var name: String {
      switch self {
      case .cellular: return "cellular"
      case .expensive: return "expensive"
      case .constrained: return "constrained"
      }
    }
  }

  /// What went wrong, as `URLError.code`.
  public var code: Code
  /// Why the system cancelled a background task, when it did.
  public var cancelReason: CancelReason?
  /// `networkUnavailableReason` of a task that failed because the only interface up is one its
  /// session or request disallows; nil for other errors, and when no interface is up at all.
  public var networkUnavailableReason: NetworkUnavailableReason?
  /// What `resumeData` says (the trace's `resumeDataOffset`).
  let resumeContents: ResumeDataContents?

  /// `NSURLSessionDownloadTaskResumeData` in the error's user info, when the download can
  /// resume: opaque bytes the app may store and hand to `downloadTask(withResumeData:)` later.
  public var resumeData: Data? { resumeContents?.data }

  /// An error with `code`, and the reason for a system cancellation.
  public init(_ code: Code, cancelReason: CancelReason? = nil) {
    self.init(code, resume: nil, cancelReason: cancelReason)
  }

  init(_ code: Code, resume: ResumeDataContents?, cancelReason: CancelReason? = nil) {
    self.code = code
    self.resumeContents = resume
    self.cancelReason = cancelReason
  }

  public var description: String { "\(code.name) (\(code.rawValue))" }
}

/// Misuse of the API that the real system answers with an exception; the simulator throws.
public struct SimAPIMisuse: Error, Hashable, Sendable, CustomStringConvertible {
  /// What was misused and how to use it instead.
  public var message: String
  /// A misuse described by `message`.
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
