import Foundation
import SimKernel
import TransferEngine

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Says that a delegate implements `urlSession(_:task:willBeginDelayedRequest:completionHandler:)`
/// on Linux. There swift-corelibs-foundation declares the method as a Swift requirement with a
/// default implementation, so the bridge cannot tell an app's own implementation from the
/// default; on Darwin it asks the Objective-C runtime, as URLSession does, and this protocol is
/// not needed. A test adapter adds it: `extension MyDelegate: URLSessionDelayedRequestDelegate {}`.
public protocol URLSessionDelayedRequestDelegate: AnyObject {}

extension DelegateCalls {
  /// True when the delegate implements `willBeginDelayedRequest`: the engine asks only then.
  static func answersDelayedRequests(_ d: URLSessionDelegate?) -> Bool {
    #if canImport(Darwin)
      guard let d = d as? URLSessionTaskDelegate else { return false }
      return d.urlSession(_:task:willBeginDelayedRequest:completionHandler:) != nil
    #else
      return d is URLSessionDelayedRequestDelegate && d is URLSessionTaskDelegate
    #endif
  }

  /// Asks about a delayed request; `answer` gets the disposition and the new request.
  static func willBeginDelayedRequest(
    _ d: URLSessionDelegate?, _ s: URLSession, _ t: URLSessionTask, _ request: URLRequest,
    _ answer: @escaping @Sendable (URLSession.DelayedRequestDisposition, URLRequest?) -> Void
  ) {
    guard let d = d as? URLSessionTaskDelegate else { return answer(.continueLoading, nil) }
    #if canImport(Darwin)
      guard let method = d.urlSession(_:task:willBeginDelayedRequest:completionHandler:) else {
        return answer(.continueLoading, nil)
      }
      method(s, t, request, answer)
    #else
      d.urlSession(s, task: t, willBeginDelayedRequest: request, completionHandler: answer)
    #endif
  }
}

extension SessionAdapter {
  var answersDelayedRequests: Bool { DelegateCalls.answersDelayedRequests(session?.delegate) }

  /// Hands the question to the app's delegate with Foundation's types. A new request counts by
  /// its URL (the engine models no headers); an answer not given by the time the delegate queue
  /// drains counts as `continueLoading`, as a redirect's does.
  func urlSession(
    _ session: SimURLSession, task: SimURLSessionTask, willBeginDelayedRequestTo url: SimURL
  ) -> SimDelayedRequestDisposition {
    guard let bridged = self.session, let target = URL(string: url.string) else { return .continueLoading }
    bridged.host?.enteredFromEngine()
    let answer = AppAnswer<SimDelayedRequestDisposition>()
    let foundationTask = bridged.task(for: task)
    bridged.deliver {
      DelegateCalls.willBeginDelayedRequest(
        bridged.delegate, bridged, foundationTask, URLRequest(url: target)
      ) {
        disposition, request in
        switch disposition {
        case .cancel: answer.setFirst(.cancel)
        case .useNewRequest:
          if let text = request?.url?.absoluteString, let newURL = SimURL(text), newURL.isHTTP {
            answer.setFirst(.useNewRequest(url: newURL))
          } else {
            answer.setFirst(.continueLoading)
          }
        default: answer.setFirst(.continueLoading)
        }
      }
    }
    return answer.value ?? .continueLoading
  }
}
