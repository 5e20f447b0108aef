import Foundation
import SimKernel
import TransferEngine

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension BridgedSession {
  /// A background session refuses completion handlers: on a device the factory raises an
  /// Objective-C exception ("Completion handler blocks are not supported in background sessions")
  /// and the app crashes. The bridge cannot crash the test, so it traces the lint
  /// `completionHandlerInBackgroundSession` and returns a task that fails when resumed. Nil for
  /// a default session, which supports them.
  func refuseConvenience(_ method: String, _ request: URLRequest) -> NSError? {
    guard configuration.isSimulatedBackground else { return nil }
    host?.simulation?.bridgeLint(
      .completionHandlerInBackgroundSession,
      "\(method) on background session '\(engine?.identifier ?? "?")': on a device this raises an exception "
        + "and the app crashes (a completion handler cannot outlive the process); use the delegate methods",
      [TraceField("session", .string(engine?.identifier ?? "?"))])
    return FoundationErrors.error(code: NSURLErrorUnsupportedURL, url: request.url)
  }

  /// The size of an upload's body file (0 when it cannot be read, as an empty body).
  static func fileSize(_ url: URL) -> Int64 {
    let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
    return (attributes?[.size] as? NSNumber)?.int64Value ?? 0
  }

  /// A task's end, on the delegate queue: its completion handler if it has one (Foundation then
  /// skips the delegate), otherwise `urlSession(_:task:didCompleteWithError:)`.
  func complete(_ task: BridgedTaskObject, _ core: TaskCore, _ error: NSError?) {
    switch core.handler {
    case .download(let handler)?:
      // A successful download already called its handler with the file.
      if error != nil || core.engine == nil { handler(nil, task.response, error) }
    case .data(let handler)?:
      handler(error == nil ? core.receivedBody : nil, task.response, error)
    case nil:
      DelegateCalls.didComplete(delegate, self, task, error)
    }
  }

  /// `urlSession(_:task:didSendBodyData:...)` for what an upload sent since the last report.
  /// The engine reports no upload progress yet, so the bridge reports the body once it is sent
  /// (before the response), or what was sent when the upload ends early.
  func reportBodySent(_ task: BridgedTaskObject, _ core: TaskCore) {
    guard let engineTask = core.engine, case .upload = engineTask.kind else { return }
    let sent = engineTask.countOfBytesSent
    guard sent > core.reportedSent else { return }
    let step = sent - core.reportedSent
    core.reportedSent = sent
    guard core.handler == nil else { return }
    DelegateCalls.didSendBodyData(delegate, self, task, step, sent, core.countOfBytesExpectedToSend)
  }
}
