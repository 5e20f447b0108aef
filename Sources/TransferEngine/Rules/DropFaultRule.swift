import SimKernel

/// Rule: a `dropConnection` fault begins (behavior.md, "Interruptions, retries and timeouts").
///
/// The fault's drops are taken by the transfers running now that it targets, in uid order,
/// while any are left; each of those is cut (`connectionDropped`). The drops left over cut
/// later transfers as they connect (`Rules/Transfer/ConnectedRule.swift`).
enum DropFaultRule {
  /// A transfer holding a connection, as the rule sees it.
  struct Transfer: Equatable {
    var uid: Int32
    var url: SimURL
  }

  /// Starts fault `index` in the engine's links, against the transfers running now.
  static func apply(fault index: Int, engine: Engine, into effects: inout EffectBuffer) {
    let transfers = engine.daemon.activeTransfers().map { Transfer(uid: $0.uid, url: $0.currentURL) }
    apply(fault: index, to: &engine.links, activeTransfers: transfers, into: &effects)
  }

  /// Starts fault `index` in `links` and appends what follows to `effects`; `activeTransfers`
  /// are the transfers holding connections, in uid order.
  static func apply(
    fault index: Int, to links: inout Links, activeTransfers: [Transfer], into effects: inout EffectBuffer
  ) {
    links.activateDrop(index)
    for transfer in activeTransfers where links.takeDrop(for: transfer.url) {
      effects.append(.interrupt(uid: transfer.uid, reason: "connectionDropped", retryNow: false))
    }
    effects.append(.rescheduleLinks)
  }
}
