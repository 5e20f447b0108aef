import SimKernel

/// Rule: the device's network changes (behavior.md, "Interruptions, retries and timeouts").
///
/// The links take the new rates; the step is traced; transfers the new network cannot carry
/// are cut: on an interface change every transfer on the old one, a background task retrying
/// at once (no backoff) when the new interface is allowed for its session, ahead of the tasks
/// that were not running; on a rate-only step only the transfers whose session may not use
/// the network now. Then every waiting task is decided again.
enum NetworkChangeRule {
  /// A session, as the rule sees it: whether it has transfers holding connections, and its
  /// configuration (what networks it may use).
  struct Session {
    var activeTransfers: Int
    var configuration: SessionConfiguration
  }

  /// A transfer holding a connection, as the rule sees it.
  struct Transfer {
    var uid: Int32
    /// Its place in resume order, which orders the retries on a new interface.
    var resumeSequence: Int
    /// Its session's configuration with the request's own settings applied (a request may
    /// disallow Low Data Mode where its session allows it).
    var configuration: SessionConfiguration
  }

  /// Applies `next` to the engine's links, with its session records and running transfers as
  /// the rule sees them.
  static func apply(_ next: NetworkState, engine: Engine, into effects: inout EffectBuffer) {
    apply(
      next, to: &engine.links, now: engine.now,
      sessions: engine.daemon.sessionsWithTransfers.lazy.map {
        Session(activeTransfers: $0.activeTransfers, configuration: $0.configuration)
      },
      activeTransfers: {
        engine.daemon.activeTransfers().map {
          Transfer(uid: $0.uid, resumeSequence: $0.resumeSequence, configuration: $0.effectiveConfiguration)
        }
      }, into: &effects)
  }

  /// Applies `next` to `links` and appends what follows to `effects`.
  ///
  /// `activeTransfers` (in uid order) is called only when some session has a transfer the step
  /// cuts, so a rate-only step costs O(sessions with transfers), not O(tasks).
  static func apply(
    _ next: NetworkState, to links: inout Links, now: SimTime, sessions: some Sequence<Session>,
    activeTransfers: () -> [Transfer], into effects: inout EffectBuffer
  ) {
    let interfaceChanged = links.apply(next, now: now).interfaceChanged
    effects.append(.trace(.networkChange, traceFields(next)))
    // A constrained step may cut a task whose own request disallows Low Data Mode even where
    // its session allows it, so it looks at the transfers too.
    let cuts = sessions.contains { session in
      session.activeTransfers > 0
        && (interfaceChanged || next.constrained || !allowed(session.configuration, on: next))
    }
    if cuts {
      var retrying: [Transfer] = []
      for transfer in activeTransfers() {
        let allowedNow = allowed(transfer.configuration, on: next)
        if interfaceChanged {
          // Not a failure when the new interface is allowed: retry there at once, first.
          let retryNow = next.isUp && allowedNow
          let reason = next.isUp ? "interfaceChanged" : "networkLost"
          effects.append(.interrupt(uid: transfer.uid, reason: reason, retryNow: retryNow))
          // A default session's task fails instead (`.interrupt` decides); only a background
          // one is queued again.
          if retryNow && transfer.configuration.kind == .background { retrying.append(transfer) }
        } else if !allowedNow {
          effects.append(.interrupt(uid: transfer.uid, reason: "interfaceNotAllowed", retryNow: false))
        }
      }
      retrying.sort { $0.resumeSequence < $1.resumeSequence }
      for transfer in retrying { effects.append(.requeueAhead(uid: transfer.uid)) }
    }
    effects.append(.rescheduleLinks)
    effects.append(.reevaluateWaiting)
  }

  /// Whether a session with `configuration` may use `network` (admission's interface rule).
  static func allowed(_ configuration: SessionConfiguration, on network: NetworkState) -> Bool {
    Admission.interfaceBlock(for: configuration, on: network) == nil
  }

  /// `network.change`'s fields: the interface, and the rates and kind when it is up.
  static func traceFields(_ next: NetworkState) -> [TraceField] {
    var fields: [TraceField] = [TraceField("interface", .string(next.interface.rawValue))]
    if next.isUp {
      fields += [
        TraceField("down", .string(next.down.description)), TraceField("up", .string(next.up.description)),
        TraceField("latency", .duration(next.latency)), TraceField("expensive", .bool(next.expensive)),
        TraceField("constrained", .bool(next.constrained)),
      ]
    }
    return fields
  }
}
