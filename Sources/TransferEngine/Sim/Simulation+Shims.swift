import SimKernel

/// Names other slices' `Simulation` code still calls, each now a room's entry, and `run(_:)`, the
/// helper that lends a rule the effect buffer and interprets it. Each goes once its callers are
/// rooms.
extension Simulation {
  /// Lets `rule` fill the reused effect buffer, then performs its effects in order; returns what
  /// the rule returns. Effects appended before a rule throws are still performed.
  func run<R, E: Error>(_ rule: (inout EffectBuffer) throws(E) -> R) throws(E) -> R {
    var effects = takeEffectBuffer()
    let result: R
    do {
      result = try rule(&effects)
    } catch {
      interpret(consume effects)
      throw error
    }
    interpret(consume effects)
    return result
  }

  /// The extension `name`'s process ended (`Rules/System/ExtensionEndRule.swift`).
  func extensionEnded(_ name: String, reason: String) {
    run { ExtensionEndRule.ended(name, reason: reason, engine: engine, into: &$0) }
  }

  /// The app's process ended (`Engine.processEnded`); a device restart calls it.
  func processEnded() {
    run { engine.processEnded(into: &$0) }
  }

  /// The response is complete (`Rules/Ending/FinishTaskRule.swift`).
  func finish(_ task: SimURLSessionTask) { run { FinishTaskRule.apply(task, engine: engine, into: &$0) } }

  /// The task fails with a transport error (`Rules/Ending/FailTaskRule.swift`).
  func fail(_ task: SimURLSessionTask, _ error: SimURLError, freeingConnection: Bool) {
    run { FailTaskRule.apply(task, error, freeingConnection: freeingConnection, engine: engine, into: &$0) }
  }

  /// The first unlock after a restart (`Rules/DeviceUnlockRule.swift`), from a launch.
  func unlockDevice() { run { DeviceUnlockRule.apply(to: &engine.links, into: &$0) } }

  /// Queues a delegate event for the app (`Engine.queueDelegateEvent`).
  func queueDelegateEvent(_ event: DelegateEvent, for record: DaemonSession) {
    run { engine.queueDelegateEvent(event, for: record, into: &$0) }
  }

  /// Times a transfer's next progress report (`Engine.armProgress`).
  func armProgress(_ task: SimURLSessionTask) { engine.armProgress(task) }

  /// The last progress report of a body all moved (`Engine.reportBodyDone`).
  func reportBodyDone(_ task: SimURLSessionTask) { run { engine.reportBodyDone(task, into: &$0) } }

  /// The app called an upload resume-data API its iOS version lacks (`UploadResumption.unavailableLint`).
  func lintUploadResumeDataUnavailable(_ call: String, task: String) {
    run { $0.append(UploadResumption.unavailableLint(call, task: task, version: deviceModel.iosVersion)) }
  }

  /// Puts a waiting task in its queue and tries to start it (`AdmissionPassRule.enqueue`).
  func enqueue(_ task: SimURLSessionTask) {
    run { AdmissionPassRule.enqueue(task, engine: engine, into: &$0) }
  }

  /// Re-decides every waiting task (`AdmissionPassRule.reevaluateAll`).
  func reevaluateAllWaiting() { run { AdmissionPassRule.reevaluateAll(engine: engine, into: &$0) } }

  /// A connection slot of `task`'s pair is free again (`AdmissionPassRule.releaseConnection`).
  func releaseConnection(of task: SimURLSessionTask, admitting: Bool = true) {
    run { AdmissionPassRule.releaseConnection(of: task, admitting: admitting, engine: engine, into: &$0) }
  }

  /// The transfer's connection broke (`Rules/Transfer/InterruptRule.swift`).
  func interrupt(_ task: SimURLSessionTask, reason: String, retryNow: Bool = false) {
    run { InterruptRule.apply(task, reason: reason, retryNow: retryNow, engine: engine, into: &$0) }
  }

  /// `Engine.requestWakeCheck`.
  func requestWakeCheck() { run { engine.requestWakeCheck(into: &$0) } }

  /// Re-arms the links' completion events (`Engine.rescheduleLinks`).
  func rescheduleLinks() { engine.rescheduleLinks() }

  /// Takes a task off whatever it is doing (`Engine.detach`) and, when asked, frees its connection.
  func detachTransfer(_ task: SimURLSessionTask, freeConnection: Bool = true) {
    engine.detach(task)
    if freeConnection { releaseConnection(of: task) }
  }

  /// The app answered `willPerformHTTPRedirection` (`Rules/Transfer/RedirectDecidedRule.swift`).
  func redirectDecided(_ task: SimURLSessionTask, to target: SimURL, follow: Bool, generation: UInt32) {
    run {
      RedirectDecidedRule.apply(
        task, to: target, follow: follow, generation: generation, engine: engine, into: &$0)
    }
  }

  /// `Rules/DelayedRequests/DelayedRequestAskRule.swift`.
  func askDelayedRequest(_ task: SimURLSessionTask) {
    run { DelayedRequestAskRule.apply(task, engine: engine, into: &$0) }
  }

  /// `Engine.queueInvalidation` (`Rules/AppRequests/Engine+SessionInvalidation.swift`), for a
  /// session whose last task ended.
  func queueInvalidation(_ session: SimURLSession) { run { engine.queueInvalidation(session, into: &$0) } }

  /// `taskIsWaitingForConnectivity`, for a default session that waits for connectivity
  /// (`Effect.notifyWaitingForConnectivity`, from the admission pass): an app call the
  /// interpreter makes.
  func notifyWaitingForConnectivity(_ task: SimURLSessionTask) {
    guard let session = task.session.appSession, lifecycle.state.isRunning else { return }
    emit(.delegateTaskIsWaitingForConnectivity, [TraceField("task", .string(task.name))])
    session.delegate?.urlSession(session, taskIsWaitingForConnectivity: task)
  }
}
