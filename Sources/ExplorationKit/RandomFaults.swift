import SimKernel
import TransferEngine

/// The random faults of one seed, drawn from the seeded generator (never the system's).
enum RandomFaults {
  /// One to three faults of the kinds `faults` allows. A process-ending fault is placed at a
  /// kill point of the baseline (where the app is out of the foreground) moved by up to a
  /// minute, a network fault anywhere in the world; they are sorted by time.
  static func draw(seed: UInt64, faults: FaultSet, from points: [Fault], duration: SimDuration) -> [Fault] {
    var random = SeededGenerator(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ 0x5EED)
    var kinds: [FaultSet] = []
    for kind in [FaultSet.systemTermination, .forceQuit, .network, .reboot] where faults.contains(kind) {
      kinds.append(kind)
    }
    guard !kinds.isEmpty, duration > .zero else { return [] }
    let count = random.uniform(1...3)
    var drawn: [Fault] = []
    let seconds = max(1, Int(duration.nanoseconds / SimDuration.nanosecondsPerSecond))
    for _ in 0..<count {
      let kind = random.choice(kinds)
      let jitter = SimDuration.milliseconds(Int64(random.uniform(0...60_000)))
      let anchor =
        points.isEmpty
        ? SimTime(.seconds(Int64(random.uniform(1...seconds)))) : random.choice(points).at + jitter
      let at = min(anchor, SimTime(duration) + .nanoseconds(-1))
      switch kind {
      case .forceQuit: drawn.append(.forceQuit(at: at))
      case .reboot: drawn.append(.reboot(at: at))
      case .network:
        let at = SimTime(.seconds(Int64(random.uniform(1...seconds))))
        let lasting = SimDuration.seconds(Int64(random.uniform(5...1_800)))
        drawn.append(
          .network(at: at, random.uniform(0...1) == 0 ? .offline : .interfaceChange, lasting: lasting))
      default: drawn.append(.terminate(at: at))
      }
    }
    return drawn.sorted { $0.at < $1.at }
  }
}
