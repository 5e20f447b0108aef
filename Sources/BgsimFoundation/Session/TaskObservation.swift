import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The completion handler a convenience factory was given; Foundation calls it in place of the
/// delegate's data and completion methods.
enum TaskHandler {
  case download(@Sendable (URL?, URLResponse?, Error?) -> Void)
  case data(@Sendable (Data?, URLResponse?, Error?) -> Void)
}

/// The task properties app code observes with key-value observing on Darwin (`state`, the byte
/// counts, `currentRequest`, `response`, `error`), as last published to observers.
struct ObservedValues: Equatable {
  var state: URLSessionTask.State = .suspended
  var countOfBytesReceived: Int64 = 0
  var countOfBytesSent: Int64 = 0
  var countOfBytesExpectedToReceive: Int64 = -1
  var countOfBytesExpectedToSend: Int64 = 0
  var currentURL: String?
  var statusCode: Int?
  var hasError = false

  /// The key paths whose values differ between `self` and `other`, in a fixed order.
  func changedKeys(to other: ObservedValues) -> [String] {
    var keys: [String] = []
    if state != other.state { keys.append("state") }
    if countOfBytesReceived != other.countOfBytesReceived { keys.append("countOfBytesReceived") }
    if countOfBytesSent != other.countOfBytesSent { keys.append("countOfBytesSent") }
    if countOfBytesExpectedToReceive != other.countOfBytesExpectedToReceive {
      keys.append("countOfBytesExpectedToReceive")
    }
    if countOfBytesExpectedToSend != other.countOfBytesExpectedToSend {
      keys.append("countOfBytesExpectedToSend")
    }
    if currentURL != other.currentURL { keys.append("currentRequest") }
    if statusCode != other.statusCode { keys.append("response") }
    if hasError != other.hasError { keys.append("error") }
    return keys
  }
}

/// The bridge's task classes: Foundation's `URLSessionTask` subclasses backed by a `TaskCore`.
protocol BridgedTaskObject: URLSessionTask {
  var core: TaskCore { get }
}

extension BridgedTaskObject {
  /// The live values, read from the engine. The core and the engine's task are read once: each
  /// read of a class reference is a retain and a release, and this runs before every delegate
  /// call (`bgsim bench bridge`).
  var liveValues: ObservedValues {
    let core = self.core
    let state = core.state
    guard let engine = core.engine else {
      return ObservedValues(
        state: state, countOfBytesExpectedToSend: core.countOfBytesExpectedToSend,
        currentURL: core.originalRequest.url?.absoluteString, statusCode: nil, hasError: core.error != nil)
    }
    return ObservedValues(
      state: state, countOfBytesReceived: engine.countOfBytesReceived,
      countOfBytesSent: engine.countOfBytesSent,
      countOfBytesExpectedToReceive: engine.countOfBytesExpectedToReceive,
      countOfBytesExpectedToSend: core.countOfBytesExpectedToSend,
      currentURL: engine.currentURL.string, statusCode: engine.statusCode, hasError: core.error != nil)
  }

  /// Tells observers what changed since the last call: `progress` follows the byte counts, and
  /// on Darwin every changed key gets `willChangeValue(forKey:)` (the getters answer the old value
  /// meanwhile, so `.old` is right) and `didChangeValue(forKey:)`, as Foundation's own tasks post
  /// them. Called before each delegate call for the task and after `resume()`, `suspend()` and
  /// `cancel()`, so an observer sees the values the delegate is about to see.
  func publishChanges() {
    let core = self.core
    let now = liveValues
    #if canImport(Darwin)
      let keys = core.published.changedKeys(to: now)
      guard !keys.isEmpty else { return }
      for key in keys {
        core.showsPublished = true
        willChangeValue(forKey: key)
        core.showsPublished = false
      }
      remember(now)
      for key in keys.reversed() { didChangeValue(forKey: key) }
    #else
      // No key-value observing: only `progress` reads what was published, so no list of keys.
      guard now != core.published else { return }
      remember(now)
    #endif
  }

  private func remember(_ values: ObservedValues) {
    core.published = values
    core.updateProgress()
    #if canImport(Darwin)
      // The old values key-value observing reads while `showsPublished` is set (Darwin only; on
      // Linux nothing reads them, and making each task's `HTTPURLResponse` here costs).
      core.publishedRequest = core.currentRequest
      core.publishedResponse = core.response
      core.publishedError = core.error
    #endif
  }
}
