import SimKernel
import TransferEngine

/// The kill points of a world, taken from its baseline run: the instants where the app is not
/// in the foreground, after its first launch, just after app code ran (a delegate call, a launch,
/// entering the background, a completion handler) or just before a pending app timer fires.
/// A point where the app's observable state (every container file and its pending timers) is the
/// same as at an earlier point is skipped: a termination there cannot leave anything different.
public struct KillPoints: Sendable {
  /// Every candidate point where a termination was possible.
  public var candidates: Int
  /// The points kept, in time order, each as the termination to inject there.
  public var faults: [Fault]
  /// The baseline's trace as this walk played it (the walk stops at each point, which must not
  /// change the trace: a difference is a nondeterminism of the world).
  public var trace: TraceLog

  /// Walks the baseline again, stopping at each instant of `baseline` where app code ran and
  /// before each timer it sees pending.
  static func enumerate(
    _ subject: ExplorationSubject, seed: UInt64, baseline: TraceLog
  ) -> KillPoints {
    let end = SimTime(subject.duration)
    var instants = Set(baseline.events.filter(ExplorationRun.isAppCallback).map(\.time).filter { $0 < end })
    var labels: [SimTime: String] = [:]
    let sim = subject.makeWorld(seed)
    sim.schedule(at: end) { $0.launchApp() }
    var seen = Set<String>()
    var candidates = 0
    var faults: [Fault] = []
    var launched = false
    while let next = instants.min() {
      instants.remove(next)
      sim.run(until: next)
      if !launched { launched = sim.trace.events.contains { $0.kind == TraceKind.appLaunch.rawValue } }
      guard launched, sim.appState == .background || sim.appState == .suspended else { continue }
      let timers = subject.pendingTimers(sim)
      for due in timers where due > next + .nanoseconds(1) && due < end {
        let before = SimTime(nanoseconds: due.nanoseconds - 1)
        if !instants.contains(before) {
          instants.insert(before)
          labels[before] = "before the app's timer due at \(due) fires"
        }
      }
      candidates += 1
      guard seen.insert(subject.observableState(sim, timers: timers)).inserted else { continue }
      let label =
        labels[next]
        ?? sim.trace.events.last(where: ExplorationRun.isAppCallback).map { "after \($0.kind)" }
      faults.append(.terminate(at: next, after: label))
    }
    sim.run(until: end + subject.settle)
    return KillPoints(candidates: candidates, faults: faults, trace: sim.trace)
  }
}
