import SimKernel

/// Rule: the app calls `URLSession(configuration:delegate:delegateQueue:)`, or an extension does
/// (behavior.md, "Sessions").
///
/// The process must be running, and an extension makes background sessions only; each refusal
/// is a `SimAPIMisuse`. A background session that cannot connect (an extension without a shared
/// container, or another process holding it) is made, fails to connect and is traced so; a
/// second background session object with a live one's identifier takes the daemon's record
/// over, with a lint; otherwise a new record. A background session without a delegate is
/// linted. The new session object gets the record's pending events and its transfers' progress.
enum MakeSessionRule {
  /// The new session object. `simulation` is only handed to the objects made, which the app
  /// calls; a rule test passes nil.
  static func apply(
    _ configuration: SessionConfiguration, delegate: SimURLSessionDelegate?, owner: SessionOwner,
    simulation: Simulation?, engine: Engine, into effects: inout EffectBuffer
  ) throws(SimAPIMisuse) -> SimURLSession {
    try checkOwner(configuration, owner: owner, engine: engine)
    let record: DaemonSession
    let problem = engine.connectionProblem(configuration, owner: owner, into: &effects)
    if let problem {
      record = engine.daemon.addSession(configuration, simulation: simulation, registers: false)
      record.connectionFailed(problem.0)
    } else if configuration.kind == .background,
      let existing = engine.daemon.backgroundSession(configuration.identifier)
    {
      record = existing
      if let live = existing.attached, !live.isInvalidated {
        effects.append(
          .lint(
            .duplicateSessionIdentifier,
            "a second background session with identifier '\(configuration.identifier)' was created while one "
              + "exists; keep one session object per identifier",
            [TraceField("session", .string(configuration.identifier))]))
      }
    } else {
      record = engine.daemon.addSession(configuration, simulation: simulation)
    }
    if configuration.kind == .background && delegate == nil {
      effects.append(
        .lint(
          .backgroundSessionWithoutDelegate, LintRule.sessionWithoutDelegateMessage(configuration.identifier),
          [TraceField("session", .string(configuration.identifier))]))
    }
    let session = SimURLSession(
      configuration: configuration, delegate: delegate, record: record, simulation: simulation, owner: owner)
    let before = engine.observing ? record.configuration : nil
    record.attach(session)
    // The invariant checker reads each task's session configuration: a new one changes them all.
    if let before, record.configuration != before {
      for task in record.tasks { engine.tasks.noteChange(task.uid) }
    }
    engine.daemon.sessionAttached()
    traceCreated(configuration, owner: owner, problem: problem, into: &effects)
    effects.append(.schedule(.deliver(sessionIndex: record.index), at: engine.now))
    effects.append(.armSessionProgress(sessionIndex: record.index))
    return session
  }

  /// Only a running process makes sessions, and an extension only background ones.
  private static func checkOwner(
    _ configuration: SessionConfiguration, owner: SessionOwner, engine: Engine
  ) throws(SimAPIMisuse) {
    guard engine.isRunning(owner) else {
      switch owner {
      case .app:
        throw SimAPIMisuse(
          "the app created session '\(configuration.identifier)' while \(engine.lifecycle.state.rawValue)")
      case .appExtension(let name):
        throw SimAPIMisuse(
          "extension '\(name)' created session '\(configuration.identifier)' while it was not running")
      }
    }
    if owner != .app && configuration.kind != .background {
      throw SimAPIMisuse(
        "extension '\(owner.traceName)' created default session '\(configuration.identifier)'; "
          + "bgsim models an extension's background sessions only")
    }
  }

  private static func traceCreated(
    _ configuration: SessionConfiguration, owner: SessionOwner,
    problem: (SimURLError.Code, heldBy: SessionOwner?)?, into effects: inout EffectBuffer
  ) {
    var fields = [
      TraceField("session", .string(configuration.identifier)),
      TraceField("sessionKind", .string(configuration.kind.rawValue)),
    ]
    if owner != .app { fields.append(TraceField("process", .string(owner.traceName))) }
    if let group = configuration.sharedContainerIdentifier {
      fields.append(TraceField("sharedContainer", .string(group)))
    }
    effects.append(.trace(.sessionCreated, fields))
    guard let (code, heldBy) = problem else { return }
    var failed = [
      TraceField("session", .string(configuration.identifier)),
      TraceField("process", .string(owner.traceName)),
      TraceField("error", .string(code.name)), TraceField("code", .int(Int64(code.rawValue))),
    ]
    if let heldBy { failed.append(TraceField("heldBy", .string(heldBy.traceName))) }
    effects.append(.trace(.sessionConnectFailed, failed))
  }
}
