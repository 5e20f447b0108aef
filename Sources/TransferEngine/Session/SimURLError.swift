#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

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

  /// `URLError.NetworkUnavailableReason`: why an allowed interface was missing (iOS 13+).
  public enum NetworkUnavailableReason: Int, CaseIterable, Hashable, Sendable {
    case cellular = 0
    case expensive = 1
    case constrained = 2

    public var name: String {
      switch self {
      case .cellular: return "cellular"
      case .expensive: return "expensive"
      case .constrained: return "constrained"
      }
    }
  }

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
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
