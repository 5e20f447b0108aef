import SimKernel

/// The facade's side of the invariant checks: it hands `InvariantChecker` what happened and a
/// snapshot after each event, and records the first finding as the run's violation.
extension Simulation {
  /// How many trace lines a violation keeps.
  static let violationTraceLines = 12

  /// Records a broken invariant (the first one wins) and stops the run after the current event.
  func violate(_ invariant: Invariant, _ message: String) {
    guard invariantViolation == nil else { return }
    let lines = trace.events.suffix(Self.violationTraceLines).map(\.jsonLine)
    let violation = InvariantViolation(invariant: invariant, time: now, message: message, lastTrace: lines)
    invariantViolation = violation
    stopRequested = true
    onInvariantViolation?(violation)
  }

  /// Records the first of `findings`, if any.
  func report(_ findings: [InvariantChecker.Finding]) {
    if let first = findings.first { violate(first.invariant, first.message) }
  }

  /// An impossible state: a recorded violation while invariants are checked, a trap otherwise.
  func inconsistency(_ invariant: Invariant, _ message: String) {
    if checksInvariants {
      violate(invariant, message)
    } else {
      preconditionFailure("internal inconsistency: \(message)")
    }
  }

  /// Invariant `protectedResourceNeedsCredential`, as a response is recorded.
  func checkProtectedResponse(_ task: SimURLSessionTask, status: Int) {
    let url = task.currentURL
    guard (200..<300).contains(status), links.server.resource(url)?.auth.isEmpty == false,
      !task.challenge.isAuthenticated(for: url)
    else { return }
    violate(
      .protectedResourceNeedsCredential,
      "task '\(task.name)' got status \(status) from \(url.string), which requires a credential it never presented"
    )
  }

  /// The invariants that can be checked from the state after an event. O(tasks + queues).
  func checkInvariants() {
    report(checker.check(after: snapshot()))
  }

  /// The start conditions, at the moment `task` starts or retries.
  func checkStart(_ task: SimURLSessionTask, firstStart: Bool) {
    report(checker.checkStart(startFacts(task, firstStart: firstStart)))
  }

  /// A trace record as it is recorded.
  func observeForInvariants(_ kind: String, _ fields: [TraceField]) {
    report(checker.observe(kind, fields, in: recordContext))
  }

  /// A `handleEvents` completion handler was called (`callCount` already counts this call).
  func checkCompletionHandlerCall(_ handler: BackgroundCompletionHandler) {
    report(
      checker.completionHandlerCalled(
        session: handler.identifier, wake: handler.wakeNumber, calls: handler.callCount))
  }

  /// The invariants that hold only once the run is over: every completed download reached the
  /// app, is still queued for it, or a lint says it was lost; and every ended task's bytes add up.
  /// Call after the last `run(until:)`; does nothing when invariants are off or one already broke.
  public func checkFinalInvariants() {
    guard checksInvariants, invariantViolation == nil else { return }
    let lintedSessions = Set(
      trace.events.filter {
        $0.is(.lint) && $0["rule"] == .string(LintRule.sessionNotRecreated.rawValue)
      }
      .compactMap { $0["session"]?.description })
    report(
      checker.checkFinal(
        tasks: snapshot().tasks, queuedDownloads: queuedDownloads(), lintedSessions: lintedSessions))
  }

  /// The engine after the current event, as the invariant checker reads it.
  func snapshot() -> EngineSnapshot<LazyMapSequence<[SimURLSessionTask], TaskFacts>> {
    EngineSnapshot(
      now: now, network: links.network, activeFlows: links.activeFlows,
      tasks: daemon.tasks.lazy.map { self.facts($0) },
      queues: daemon.waitQueueOrder.map { ($0, daemon.running($0) ?? 0) })
  }

  func facts(_ task: SimURLSessionTask) -> TaskFacts {
    TaskFacts(
      uid: task.uid, name: task.name, isDownload: task.isDownload, fetchesBody: task.fetchesBody,
      isFinished: task.isFinished,
      isActive: task.machine.isActive, movesBytes: task.machine.direction != nil,
      connectionKey: task.connectionKey ?? daemon.queueKey(task),
      connectionLimit: engine.connectionLimit(task),
      configuration: task.effectiveConfiguration, received: task.countOfBytesReceived,
      sent: task.countOfBytesSent, fetchingSize: task.bytes.fetchingSize, uploadSize: task.uploadSize,
      responseBody: task.bytes.responseBody, bytesOnWire: task.bytesOnWire,
      inheritedBytes: task.inheritedBytes,
      bytesWasted: task.bytesWasted, sessionIdentifier: task.session.identifier)
  }

  func startFacts(_ task: SimURLSessionTask, firstStart: Bool) -> StartFacts {
    var request = engine.admissionRequest(task, running: 0)
    request.firstStart = firstStart
    return StartFacts(task: task.name, request: request, conditions: engine.admissionConditions)
  }

  /// The downloads whose `didFinishDownloading` still waits in a session's queue.
  func queuedDownloads() -> Set<Int32> {
    var uids: Set<Int32> = []
    for record in daemon.sessionRecords {
      for case .didFinishDownloading(let task) in record.pending { uids.insert(task.uid) }
    }
    return uids
  }

  var recordContext: RecordContext {
    RecordContext(
      appState: lifecycle.state, forceQuit: lifecycle.forceQuit,
      backgroundAppRefresh: deviceModel.backgroundAppRefresh)
  }
}
