import SimKernel

/// Device conditions that are drawn while the run goes (a scenario's `random` section) instead
/// of being listed up front: only the next change of each stream is held, so a stream of a
/// million changes takes no more memory than one of ten.
///
/// A change due at the same instant as engine events runs before them, in the order the
/// streams were added, exactly as the same changes listed as device steps would.
public struct ConditionStream {
  public enum Change: Sendable {
    case network(NetworkState)
    case power(PowerState)
    /// The system terminates the app (memory pressure).
    case terminate
  }

  /// Gives the next change and its time (never earlier than the previous one), or nil when
  /// the stream has ended.
  public var next: () -> (at: SimTime, change: Change)?

  public init(next: @escaping () -> (at: SimTime, change: Change)?) { self.next = next }
}

extension Simulation {
  /// Adds a stream of changes; its first change is drawn now.
  public func addConditionStream(_ stream: ConditionStream) {
    conditionStreams.append(stream)
    pendingConditions.append(stream.next())
  }

  /// The stream whose pending change comes first (the first added of equals), if due by `limit`.
  func dueCondition(notAfter limit: SimTime) -> (index: Int, at: SimTime)? {
    if pendingConditions.isEmpty { return nil }
    var best: (Int, SimTime)?
    for (i, pending) in pendingConditions.enumerated() {
      guard let pending, pending.at <= limit else { continue }
      if best == nil || pending.at < best!.1 { best = (i, pending.at) }
    }
    return best
  }

  /// Applies, in stream order, the streams' changes due at time 0 that `matches` selects
  /// (`init` applies network and power changes before the run, as it does the device's steps).
  func applyConditionsAtStart(where matches: (ConditionStream.Change) -> Bool) {
    for index in pendingConditions.indices {
      while let pending = pendingConditions[index], pending.at <= .zero, matches(pending.change) {
        applyCondition(index)
      }
    }
  }

  /// Applies the pending change of stream `index` at its time and draws the stream's next one.
  func applyCondition(_ index: Int) {
    guard let pending = pendingConditions[index] else { return }
    scheduler.advance(to: pending.at)
    pendingConditions[index] = conditionStreams[index].next()
    switch pending.change {
    case .network(let state): applyNetwork(state)
    case .power(let state): applyPower(state)
    case .terminate: terminateApp()
    }
  }
}
