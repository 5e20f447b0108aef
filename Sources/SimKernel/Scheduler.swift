/// The simulated clock and its pending events: what a model schedules and the loop pops.
///
/// `now` only moves forward: to the time of each event popped, or to a limit with `advance(to:)`.
/// Scheduling in the past is an internal inconsistency, caught by a precondition.
public struct Scheduler<Event> {
  @usableFromInline var current: SimTime = .zero
  /// The current simulated time.
  @inlinable public var now: SimTime { current }
  @usableFromInline var queue = EventQueue<Event>()

  /// A scheduler at time zero with no events.
  public init() {}

  /// Number of pending events.
  @inlinable public var pendingCount: Int { queue.count }

  /// Schedules `event` at `time` (not before `now`); equal times fire in scheduling order.
  @inlinable @discardableResult
  public mutating func schedule(_ event: Event, at time: SimTime) -> EventHandle {
    precondition(time >= now, "internal inconsistency: event scheduled at \(time) before now \(now)")
    return queue.schedule(event, at: time)
  }

  /// Schedules `event` `delay` after `now`.
  @inlinable @discardableResult
  public mutating func schedule(_ event: Event, after delay: SimDuration) -> EventHandle {
    schedule(event, at: now + delay)
  }

  /// Cancels a pending event; false if it already fired or was cancelled.
  @inlinable @discardableResult
  public mutating func cancel(_ handle: EventHandle) -> Bool { queue.cancel(handle) }

  /// Whether the event is still waiting: neither fired nor cancelled.
  @inlinable public func isPending(_ handle: EventHandle) -> Bool { queue.isLive(handle) }

  /// The time of the next pending event, if any.
  @inlinable public mutating func nextEventTime() -> SimTime? { queue.peekTime() }

  /// Pops the next event due at or before `limit` and moves `now` to its time; nil when the
  /// next event (if any) is later than `limit`. Events scheduled while handling one are seen
  /// by the following calls, so a loop over `next(notAfter:)` runs everything up to `limit`.
  @inlinable public mutating func next(notAfter limit: SimTime) -> Event? {
    guard let (time, event) = queue.popNext(notAfter: limit) else { return nil }
    current = time
    return event
  }

  /// Moves `now` forward to `time` without firing anything; it must not skip a pending event.
  public mutating func advance(to time: SimTime) {
    guard time > now else { return }
    if let next = queue.peekTime() {
      precondition(next >= time, "internal inconsistency: advancing to \(time) past an event at \(next)")
    }
    current = time
  }
}
