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
      handler(error == nil ? ResponseBody.whole(core.receivedBytes) : nil, task.response, error)
    case nil:
      DelegateCalls.didComplete(delegate, self, task, error)
    }
  }

  /// A completion handler's body over `ResponseBody.handlerLimit`: the task fails with
  /// `NSURLErrorDataLengthExceedsMaximum` instead, traced `bridge.bodyTooLarge`. Nil otherwise.
  func bodyTooLargeForHandler(_ core: TaskCore, _ engineTask: SimURLSessionTask) -> NSError? {
    guard case .data? = core.handler, core.receivedBytes > ResponseBody.handlerLimit else { return nil }
    host?.simulation?.emitNote(
      "bridge.bodyTooLarge",
      [
        TraceField("task", .string(engineTask.name)), TraceField("bytes", .int(core.receivedBytes)),
        TraceField("limit", .int(ResponseBody.handlerLimit)),
      ])
    return FoundationErrors.error(
      code: NSURLErrorDataLengthExceedsMaximum, url: URL(string: engineTask.currentURL.string))
  }
}
