/// The classic hold model: a fixed population of pending timers, each fired event re-armed at
/// now + an exponential delay. Measures the kernel alone (queue and generator).
public enum HoldBenchmark {
  /// What one run did; `checksum` depends on every event so the work cannot be optimised away.
  public struct Outcome: Sendable {
    /// Events fired.
    public var events: Int
    /// Simulated time of the last event.
    public var finalTime: SimTime
    /// A value mixed from every fired event, printed so the work cannot be optimised away.
    public var checksum: UInt64
  }

  /// Runs `events` events over `pending` timers with mean delay `mean`.
  public static func run(
    pending: Int = 10_000, events: Int = 5_000_000, mean: SimDuration = .milliseconds(1), seed: UInt64 = 1
  ) -> Outcome {
    var queue = EventQueue<UInt32>()
    var random = SeededGenerator(seed: seed)
    for i in 0..<pending {
      queue.schedule(UInt32(truncatingIfNeeded: i), at: .zero + random.exponential(mean: mean))
    }
    var checksum: UInt64 = 0
    var now = SimTime.zero
    for _ in 0..<events {
      guard let (time, id) = queue.popNext() else { break }
      now = time
      checksum = checksum &* 31 &+ UInt64(id) &+ UInt64(bitPattern: time.nanoseconds)
      queue.schedule(id, at: now + random.exponential(mean: mean))
    }
    return Outcome(events: events, finalTime: now, checksum: checksum)
  }
}
