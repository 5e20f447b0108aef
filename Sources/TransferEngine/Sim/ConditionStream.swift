import SimKernel

/// Device conditions that are drawn while the run goes (a scenario's `random` section) instead
/// of being listed up front: only the next change of each stream is held, so a stream of a
/// million changes takes no more memory than one of ten.
///
/// A change due at the same instant as engine events runs before them, in the order the
/// streams were added, exactly as the same changes listed as device steps would.
public struct ConditionStream {
  /// One change a stream makes to the device or the app.
  public enum Change: Sendable {
    /// The network becomes this state.
    case network(NetworkState)
    /// Power becomes this state.
    case power(PowerState)
    /// The system terminates the app (memory pressure).
    case terminate
  }

  /// Gives the next change and its time (never earlier than the previous one), or nil when
  /// the stream has ended.
  public var next: () -> (at: SimTime, change: Change)?

  /// A stream whose changes come from `next`, called each time the previous one is applied.
  public init(next: @escaping () -> (at: SimTime, change: Change)?) { self.next = next }
}

/// The condition streams of a run and the next change of each: a component of the facade that
/// owns its state, so only `take` moves a stream on.
struct ConditionStreams {
  private var streams: [ConditionStream] = []
  private var pending: [(at: SimTime, change: ConditionStream.Change)?] = []

  /// Adds a stream; its first change is drawn now.
  mutating func add(_ stream: ConditionStream) {
    streams.append(stream)
    pending.append(stream.next())
  }

  /// A stream still has a change to come.
  var hasPending: Bool { pending.contains { $0 != nil } }

  var indices: Range<Int> { pending.indices }

  /// Stream `index`'s next change, without taking it.
  func peek(_ index: Int) -> (at: SimTime, change: ConditionStream.Change)? { pending[index] }

  /// The stream whose pending change comes first (the first added of equals), if due by `limit`.
  func due(notAfter limit: SimTime) -> (index: Int, at: SimTime)? {
    if pending.isEmpty { return nil }
    var best: (Int, SimTime)?
    for (i, next) in pending.enumerated() {
      guard let next, next.at <= limit else { continue }
      if best == nil || next.at < best!.1 { best = (i, next.at) }
    }
    return best
  }

  /// Takes stream `index`'s pending change and draws the one after it.
  mutating func take(_ index: Int) -> (at: SimTime, change: ConditionStream.Change)? {
    guard let next = pending[index] else { return nil }
    pending[index] = streams[index].next()
    return next
  }
}
