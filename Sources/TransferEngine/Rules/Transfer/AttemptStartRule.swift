import SimKernel

/// Rule: admission let a task through (behavior.md, "Interruptions and retries"): its attempt
/// starts, one round trip before the response.
///
/// The first attempt is traced `task.started`; a later one `task.retry`, with its number and the
/// offset the body would start from if the server answers as it does now (`startOffset`). A
/// challenge timer left from an earlier attempt is cancelled. While invariants are checked, the
/// start conditions are observed before the trace.
enum AttemptStartRule {
  static func apply(_ task: SimURLSessionTask, engine: Engine, into effects: inout EffectBuffer) {
    let firstStart = task.machine.startedAt == nil
    let attempt = engine.tasks[task].machine.admit(at: engine.now)
    engine.tasks[task].record.admitted()
    if let stale = engine.tasks[task].challenge.attemptStarted() { effects.append(.cancelEvent(stale)) }
    if engine.observing { effects.append(.observe(.attemptStarted(uid: task.uid, firstStart: firstStart))) }
    let name = TraceField("task", .string(task.name))
    let session = TraceField("session", .string(task.session.identifier))
    switch attempt {
    case .start:
      effects.append(
        .trace(.taskStarted, [name, session, TraceField("taskIdentifier", .int(Int64(task.taskIdentifier)))]))
    case .retry(let number):
      let resource = engine.links.server.resource(task.currentURL)
      let status = engine.links.server.status(for: task.currentURL, resource: resource, at: engine.now)
      effects.append(
        .trace(
          .taskRetry,
          [
            name, session, TraceField("attempt", .int(Int64(number))),
            TraceField("offset", .int(engine.startOffset(task, status: status, resource: resource))),
          ]))
    }
    effects.append(
      .schedule(
        .connected(uid: task.uid, generation: task.machine.generation),
        at: engine.now + engine.links.network.latency * 2))
  }
}
