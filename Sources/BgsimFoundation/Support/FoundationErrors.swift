import Foundation
import SimKernel
import TransferEngine

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

#if !canImport(Darwin)
  /// Darwin's `userInfo` key for resume data; swift-corelibs-foundation names it
  /// `URLSessionDownloadTaskResumeData` only.
  public let NSURLSessionDownloadTaskResumeData: String = URLSessionDownloadTaskResumeData

  /// Darwin's `userInfo` key (iOS 13+) for why no allowed interface was up
  /// (`URLError.networkUnavailableReason`: 0 cellular, 1 expensive, 2 constrained);
  /// swift-corelibs-foundation has none.
  public let NSURLErrorNetworkUnavailableReasonKey: String = "NSURLErrorNetworkUnavailableReasonKey"

  /// Darwin's `userInfo` key (iOS 17+) for a failed upload's resume data;
  /// swift-corelibs-foundation has none.
  public let NSURLSessionUploadTaskResumeData: String = FoundationErrors.uploadResumeDataKey
#endif

/// The `NSError`s the bridge hands to app code: `NSURLErrorDomain`, the engine's code, and the
/// `userInfo` keys Foundation fills in.
enum FoundationErrors {
  /// Darwin's value of `NSURLErrorFailingURLStringErrorKey` (deprecated on Linux, same string).
  static let failingURLStringKey = "NSErrorFailingURLStringKey"
  /// Darwin's value of `NSURLSessionUploadTaskResumeData` (iOS 17+), written out so code built
  /// for iOS 16 can set it without an availability check.
  static let uploadResumeDataKey = "NSURLSessionUploadTaskResumeData"

  static func error(
    code: Int, url: URL?, resumeData: Data? = nil, uploadResumeData: Data? = nil, cancelReason: Int? = nil,
    networkUnavailableReason: Int? = nil
  ) -> NSError {
    var info: [String: Any] = [:]
    if let url {
      info[NSURLErrorFailingURLErrorKey] = url
      info[failingURLStringKey] = url.absoluteString
    }
    if let resumeData { info[NSURLSessionDownloadTaskResumeData] = resumeData }
    if let uploadResumeData { info[uploadResumeDataKey] = uploadResumeData }
    if let cancelReason { info[NSURLErrorBackgroundTaskCancelledReasonKey] = cancelReason }
    if let networkUnavailableReason { info[NSURLErrorNetworkUnavailableReasonKey] = networkUnavailableReason }
    return NSError(domain: NSURLErrorDomain, code: code, userInfo: info)
  }

  /// Invalid or stale resume data: Darwin fails the task with -3003 ("Invalid resume data for
  /// background download").
  static func invalidResumeData(url: URL?) -> NSError { error(code: NSURLErrorCannotWriteToFile, url: url) }
}

extension Simulation {
  /// Traces a `lint` event the way the engine does: the rule, the message, then `extra`.
  func bridgeLint(_ rule: LintRule, _ message: String, _ extra: [TraceField] = []) {
    emitNote(
      "lint", [TraceField("rule", .string(rule.rawValue)), TraceField("message", .string(message))] + extra)
  }
}
