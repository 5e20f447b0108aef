import Foundation
import SimKernel
import TransferEngine

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Authentication challenges for a bridged session: the engine's challenge as Foundation's
/// `URLAuthenticationChallenge`, handed to the app's delegate on its delegate queue; the answer
/// it gives its completion handler goes back to the engine (docs/foundation-bridge.md).
extension SessionAdapter {
  var answersChallenges: Bool { ChallengeCalls.answersChallenges(session?.delegate) }

  func urlSession(
    _ session: SimURLSession, task: SimURLSessionTask, didReceive challenge: SimAuthenticationChallenge
  ) -> SimAuthChallengeDisposition {
    guard let bridged = self.session else { return .performDefaultHandling }
    bridged.host?.enteredFromEngine()
    let foundationChallenge = ChallengeCalls.foundationChallenge(challenge, url: task.currentURL)
    let foundationTask = bridged.task(for: task)
    let answer = AppAnswer<(URLSession.AuthChallengeDisposition, URLCredential?)>()
    bridged.deliver {
      ChallengeCalls.ask(
        bridged.delegate, bridged, foundationTask, foundationChallenge,
        sessionLevel: challenge.method.isSessionLevel
      ) {
        answer.setFirst(($0, $1))
      }
    }
    return answer.disposition
  }
}

/// The app's answer as the engine's disposition. An app that never calls the completion
/// handler leaves default handling.
extension AppAnswer where Value == (URLSession.AuthChallengeDisposition, URLCredential?) {
  var disposition: SimAuthChallengeDisposition {
    guard let (disposition, credential) = value else { return .performDefaultHandling }
    switch disposition {
    case .useCredential:
      // `useCredential` without a credential continues without one: the server's 401.
      guard let credential, let user = credential.user else { return .performDefaultHandling }
      return .useCredential(SimURLCredential(user: user, password: credential.password ?? ""))
    case .cancelAuthenticationChallenge: return .cancelAuthenticationChallenge
    case .rejectProtectionSpace: return .rejectProtectionSpace
    default: return .performDefaultHandling
    }
  }
}

/// The sender a `URLAuthenticationChallenge` needs; URLSession's delegate-based answers go
/// through the completion handler, so every call here is ignored, as URLSession ignores them.
final class ChallengeSender: NSObject, URLAuthenticationChallengeSender {
  func use(_ credential: URLCredential, for challenge: URLAuthenticationChallenge) {}
  func continueWithoutCredential(for challenge: URLAuthenticationChallenge) {}
  func cancel(_ challenge: URLAuthenticationChallenge) {}
  func performDefaultHandling(for challenge: URLAuthenticationChallenge) {}
  func rejectProtectionSpaceAndContinue(with challenge: URLAuthenticationChallenge) {}
}

enum ChallengeCalls {
  static func foundationChallenge(_ challenge: SimAuthenticationChallenge, url: SimURL)
    -> URLAuthenticationChallenge
  {
    let method: String
    switch challenge.method {
    case .basic: method = NSURLAuthenticationMethodHTTPBasic
    case .digest: method = NSURLAuthenticationMethodHTTPDigest
    case .ntlm: method = NSURLAuthenticationMethodNTLM
    case .negotiate: method = NSURLAuthenticationMethodNegotiate
    }
    let components = URL(string: url.string)
    let port = components?.port ?? (url.scheme == "https" ? 443 : 80)
    let space = URLProtectionSpace(
      host: challenge.host, port: port, protocol: url.scheme,
      realm: challenge.realm.isEmpty ? nil : challenge.realm, authenticationMethod: method)
    return URLAuthenticationChallenge(
      protectionSpace: space, proposedCredential: nil, previousFailureCount: challenge.previousFailureCount,
      failureResponse: nil, error: nil, sender: ChallengeSender())
  }

  /// True when the delegate implements either challenge method. On Linux, where every
  /// Foundation delegate method has a default implementation, any delegate counts: it is asked,
  /// and one without the methods answers default handling through the default.
  static func answersChallenges(_ d: URLSessionDelegate?) -> Bool {
    guard let d else { return false }
    #if canImport(Darwin)
      if d.urlSession(_:didReceive:completionHandler:) != nil { return true }
      guard let taskDelegate = d as? URLSessionTaskDelegate else { return false }
      return taskDelegate.urlSession(_:task:didReceive:completionHandler:) != nil
    #else
      return true
    #endif
  }

  typealias Answer = @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void

  /// A session-level challenge goes to the session delegate's method when it has one, else to the
  /// task delegate's, as URLSession does; a delegate with neither gets default handling. On
  /// Linux, where Foundation's protocols give every method a default implementation that answers
  /// default handling, a session-level default answer falls through to the task-level method.
  static func ask(
    _ d: URLSessionDelegate?, _ s: URLSession, _ t: URLSessionTask, _ c: URLAuthenticationChallenge,
    sessionLevel: Bool, _ answer: @escaping Answer
  ) {
    guard let d else { return answer(.performDefaultHandling, nil) }
    #if canImport(Darwin)
      if sessionLevel, let method = d.urlSession(_:didReceive:completionHandler:) {
        return method(s, c, answer)
      }
      guard let taskDelegate = d as? URLSessionTaskDelegate,
        let method = taskDelegate.urlSession(_:task:didReceive:completionHandler:)
      else { return answer(.performDefaultHandling, nil) }
      method(s, t, c, answer)
    #else
      let askTask: Answer = { disposition, credential in
        guard let taskDelegate = d as? URLSessionTaskDelegate else { return answer(disposition, credential) }
        taskDelegate.urlSession(s, task: t, didReceive: c, completionHandler: answer)
      }
      guard sessionLevel else { return askTask(.performDefaultHandling, nil) }
      d.urlSession(s, didReceive: c) { disposition, credential in
        if disposition == .performDefaultHandling { return askTask(disposition, credential) }
        answer(disposition, credential)
      }
    #endif
  }
}
