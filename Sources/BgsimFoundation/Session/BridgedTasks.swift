import Foundation
import TransferEngine

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// The task classes override every property Darwin's `URLSessionTask` exposes that the simulation
// drives, so reads (and, on Darwin, key-value observers: see `TaskObservation`) see the engine's
// state. The three classes repeat the same overrides: Swift cannot share overrides of a
// superclass's members between sibling subclasses.

/// A `URLSessionDownloadTask` backed by the simulation. App code sees only the Foundation type.
final class BridgedDownloadTask: URLSessionDownloadTask, BridgedTaskObject, @unchecked Sendable {
  let core: TaskCore
  init(core: TaskCore) {
    self.core = core
    super.init()  // Deprecated on Darwin (iOS 13) but available: the only initializer a subclass can reach.
  }

  override var taskIdentifier: Int { core.taskIdentifier }
  override var originalRequest: URLRequest? { core.originalRequest }
  override var currentRequest: URLRequest? { core.visibleRequest }
  override var response: URLResponse? { core.visibleResponse }
  override var state: URLSessionTask.State { core.visibleState }
  override var error: Error? { core.visibleError }
  override var progress: Progress { core.progress }
  override var countOfBytesReceived: Int64 { core.visibleReceived }
  override var countOfBytesSent: Int64 { core.visibleSent }
  override var countOfBytesExpectedToReceive: Int64 { core.visibleExpectedToReceive }
  override var countOfBytesExpectedToSend: Int64 { core.visibleExpectedToSend }
  override var taskDescription: String? {
    get { core.engine?.taskDescription ?? super.taskDescription }
    set {
      core.engine?.taskDescription = newValue
      super.taskDescription = newValue
    }
  }
  override var priority: Float {
    get { core.priority }
    set { core.priority = newValue }
  }
  override var countOfBytesClientExpectsToReceive: Int64 {
    get { core.engine?.countOfBytesClientExpectsToReceive ?? -1 }
    set { core.engine?.countOfBytesClientExpectsToReceive = newValue }
  }
  override var countOfBytesClientExpectsToSend: Int64 {
    get { core.engine?.countOfBytesClientExpectsToSend ?? -1 }
    set { core.engine?.countOfBytesClientExpectsToSend = newValue }
  }
  /// Read by the engine (simulated time since `Simulation.referenceDate`); set it before `resume()`.
  override var earliestBeginDate: Date? {
    get { core.earliestBeginDate }
    set { core.earliestBeginDate = newValue }
  }
  override func resume() { core.liveSession?.resume(core, self) }
  override func suspend() { core.liveSession?.suspend(core, self) }
  override func cancel() { core.liveSession?.cancel(core, self) }
  #if canImport(Darwin)
    override func cancel(byProducingResumeData completionHandler: @escaping @Sendable (Data?) -> Void) {
      core.liveSession?.cancelProducingResumeData(core, self, completionHandler)
    }
  #else
    override func cancel(byProducingResumeData completionHandler: @escaping (Data?) -> Void) {
      core.liveSession?.cancelProducingResumeData(core, self, completionHandler)
    }
  #endif
}

/// A `URLSessionUploadTask` backed by the simulation.
final class BridgedUploadTask: URLSessionUploadTask, BridgedTaskObject, @unchecked Sendable {
  let core: TaskCore
  init(core: TaskCore) {
    self.core = core
    super.init()  // Deprecated on Darwin (iOS 13) but available.
  }

  override var taskIdentifier: Int { core.taskIdentifier }
  override var originalRequest: URLRequest? { core.originalRequest }
  override var currentRequest: URLRequest? { core.visibleRequest }
  override var response: URLResponse? { core.visibleResponse }
  override var state: URLSessionTask.State { core.visibleState }
  override var error: Error? { core.visibleError }
  override var progress: Progress { core.progress }
  override var countOfBytesReceived: Int64 { core.visibleReceived }
  override var countOfBytesSent: Int64 { core.visibleSent }
  override var countOfBytesExpectedToReceive: Int64 { core.visibleExpectedToReceive }
  override var countOfBytesExpectedToSend: Int64 { core.visibleExpectedToSend }
  override var taskDescription: String? {
    get { core.engine?.taskDescription ?? super.taskDescription }
    set {
      core.engine?.taskDescription = newValue
      super.taskDescription = newValue
    }
  }
  override var priority: Float {
    get { core.priority }
    set { core.priority = newValue }
  }
  override var countOfBytesClientExpectsToReceive: Int64 {
    get { core.engine?.countOfBytesClientExpectsToReceive ?? -1 }
    set { core.engine?.countOfBytesClientExpectsToReceive = newValue }
  }
  override var countOfBytesClientExpectsToSend: Int64 {
    get { core.engine?.countOfBytesClientExpectsToSend ?? -1 }
    set { core.engine?.countOfBytesClientExpectsToSend = newValue }
  }
  override var earliestBeginDate: Date? {
    get { core.earliestBeginDate }
    set { core.earliestBeginDate = newValue }
  }
  override func resume() { core.liveSession?.resume(core, self) }
  override func suspend() { core.liveSession?.suspend(core, self) }
  override func cancel() { core.liveSession?.cancel(core, self) }
  #if canImport(Darwin)
    /// iOS 17 / macOS 14: resume data when the server can continue the upload (Linux: the
    /// extension in `UploadResumeAPI.swift`).
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    override func cancel(byProducingResumeData completionHandler: @escaping @Sendable (Data?) -> Void) {
      core.liveSession?.cancelProducingResumeData(core, self, completionHandler)
    }
  #endif
}

/// A `URLSessionDataTask` backed by the simulation: the engine's data task (its body comes to
/// the delegate in memory), or a task the bridge refused (a completion handler on a background
/// session), which completes with its error once resumed. Either way app code never reaches
/// swift-corelibs-foundation's real networking through the session's superclass.
final class BridgedDataTask: URLSessionDataTask, BridgedTaskObject, @unchecked Sendable {
  let core: TaskCore
  init(core: TaskCore) {
    self.core = core
    super.init()  // Deprecated on Darwin (iOS 13) but available.
  }

  override var taskIdentifier: Int { core.taskIdentifier }
  override var originalRequest: URLRequest? { core.originalRequest }
  override var currentRequest: URLRequest? { core.visibleRequest }
  override var response: URLResponse? { core.visibleResponse }
  override var state: URLSessionTask.State { core.visibleState }
  override var error: Error? { core.visibleError }
  override var progress: Progress { core.progress }
  override var countOfBytesReceived: Int64 { core.visibleReceived }
  override var countOfBytesSent: Int64 { core.visibleSent }
  override var countOfBytesExpectedToReceive: Int64 { core.visibleExpectedToReceive }
  override var countOfBytesExpectedToSend: Int64 { core.visibleExpectedToSend }
  override var taskDescription: String? {
    get { core.engine?.taskDescription ?? super.taskDescription }
    set {
      core.engine?.taskDescription = newValue
      super.taskDescription = newValue
    }
  }
  override var priority: Float {
    get { core.priority }
    set { core.priority = newValue }
  }
  override var countOfBytesClientExpectsToReceive: Int64 {
    get { core.engine?.countOfBytesClientExpectsToReceive ?? -1 }
    set { core.engine?.countOfBytesClientExpectsToReceive = newValue }
  }
  override var countOfBytesClientExpectsToSend: Int64 {
    get { core.engine?.countOfBytesClientExpectsToSend ?? -1 }
    set { core.engine?.countOfBytesClientExpectsToSend = newValue }
  }
  override var earliestBeginDate: Date? {
    get { core.earliestBeginDate }
    set { core.earliestBeginDate = newValue }
  }
  override func resume() { core.liveSession?.resume(core, self) }
  override func suspend() { core.liveSession?.suspend(core, self) }
  override func cancel() { core.liveSession?.cancel(core, self) }
}
