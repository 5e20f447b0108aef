import Foundation
import TransferEngine

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A `URLSessionDownloadTask` backed by the simulation. App code sees only the Foundation type.
final class BridgedDownloadTask: URLSessionDownloadTask, @unchecked Sendable {
  let core: TaskCore
  init(core: TaskCore) {
    self.core = core
    super.init()  // Deprecated on Darwin (iOS 13) but available: the only initializer a subclass can reach.
  }

  override var taskIdentifier: Int { core.taskIdentifier }
  override var originalRequest: URLRequest? { core.originalRequest }
  override var currentRequest: URLRequest? { core.currentRequest }
  override var response: URLResponse? { core.response }
  override var state: URLSessionTask.State { core.state }
  override var error: Error? { core.error }
  override var countOfBytesReceived: Int64 { core.engine?.countOfBytesReceived ?? 0 }
  override var countOfBytesSent: Int64 { core.engine?.countOfBytesSent ?? 0 }
  override var countOfBytesExpectedToReceive: Int64 { core.engine?.countOfBytesExpectedToReceive ?? -1 }
  override var countOfBytesExpectedToSend: Int64 { core.countOfBytesExpectedToSend }
  override var taskDescription: String? {
    get { core.engine?.taskDescription ?? super.taskDescription }
    set {
      core.engine?.taskDescription = newValue
      super.taskDescription = newValue
    }
  }
  override var priority: Float {
    get { Float(core.engine?.priority ?? 0.5) }
    set { core.engine?.priority = Double(min(max(newValue, 0), 1)) }
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
  override func resume() { core.session?.resume(core) }
  override func suspend() { core.session?.suspend(core) }
  override func cancel() { core.session?.cancel(core) }
  #if canImport(Darwin)
    override func cancel(byProducingResumeData completionHandler: @escaping @Sendable (Data?) -> Void) {
      core.session?.cancelProducingResumeData(core, completionHandler)
    }
  #else
    override func cancel(byProducingResumeData completionHandler: @escaping (Data?) -> Void) {
      core.session?.cancelProducingResumeData(core, completionHandler)
    }
  #endif
}

/// A `URLSessionUploadTask` backed by the simulation.
final class BridgedUploadTask: URLSessionUploadTask, @unchecked Sendable {
  let core: TaskCore
  init(core: TaskCore) {
    self.core = core
    super.init()  // Deprecated on Darwin (iOS 13) but available.
  }

  override var taskIdentifier: Int { core.taskIdentifier }
  override var originalRequest: URLRequest? { core.originalRequest }
  override var currentRequest: URLRequest? { core.currentRequest }
  override var response: URLResponse? { core.response }
  override var state: URLSessionTask.State { core.state }
  override var error: Error? { core.error }
  override var countOfBytesReceived: Int64 { core.engine?.countOfBytesReceived ?? 0 }
  override var countOfBytesSent: Int64 { core.engine?.countOfBytesSent ?? 0 }
  override var countOfBytesExpectedToReceive: Int64 { core.engine?.countOfBytesExpectedToReceive ?? -1 }
  override var countOfBytesExpectedToSend: Int64 { core.countOfBytesExpectedToSend }
  override var taskDescription: String? {
    get { core.engine?.taskDescription ?? super.taskDescription }
    set {
      core.engine?.taskDescription = newValue
      super.taskDescription = newValue
    }
  }
  override var priority: Float {
    get { Float(core.engine?.priority ?? 0.5) }
    set { core.engine?.priority = Double(min(max(newValue, 0), 1)) }
  }
  override func resume() { core.session?.resume(core) }
  override func suspend() { core.session?.suspend(core) }
  override func cancel() { core.session?.cancel(core) }
}
