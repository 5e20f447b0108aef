import Foundation
import SimKernel
import TransferEngine

/// One run of a world with faults injected, and what it left.
struct RunRecord {
  /// The faults that took effect (a process-ending fault while the app was in the foreground,
  /// not running or not yet launched is skipped).
  var applied: [Fault]
  /// For each applied fault, what the app was doing (its last callback, its pending timers).
  var context: [String]
  var outcome: ExplorationOutcome
  /// The lint rules the run traced, with the first message of each.
  var lints: [String: String]
  /// The property's message, if it returned one.
  var propertyMessage: String?
  /// The world's device, server and policy, for a replay scenario.
  var world: (device: DeviceModel, server: ServerModel, policy: Policy)
  /// Bytes each task threw away, in creation order (`Finding.bytesWastedInCreationOrder`).
  var bytesWastedInCreationOrder: [Int64] = []
}

/// Plays a world with faults: the user's script as written, each fault after everything the
/// world did at its instant, then the end of the world, the user's launch and the settle time.
enum ExplorationRun {
  /// Without `readsFiles` the outcome's files are left empty (the determinism oracle's second
  /// play is compared by its trace alone); the world plays the same either way.
  static func play(
    _ subject: ExplorationSubject, faults plan: [Fault], seed: UInt64, userReturnsAfter: SimDuration,
    property: ((ExplorationOutcome) -> String?)?, readsFiles: Bool = true
  ) -> RunRecord {
    let sim = subject.makeWorld(seed)
    let end = SimTime(subject.duration)
    var filesAtEnd: [String: String] = [:]
    sim.schedule(at: end) { sim in
      if readsFiles { filesAtEnd = subject.outcomeFiles(sim) }
      sim.launchApp()
    }
    var applied: [Fault] = []
    var context: [String] = []
    var launched = false
    for fault in plan.sorted(by: { $0.at < $1.at }) where fault.at < end {
      // The end-of-world callback is pending, so the clock reaches `fault.at`.
      sim.run(until: fault.at)
      if !launched { launched = sim.trace.events.contains { $0.kind == TraceKind.appLaunch.rawValue } }
      if fault.endsProcess {
        let state = sim.appState
        guard launched, state == .background || state == .suspended else { continue }
      }
      context.append(doing(sim, subject))
      apply(fault, to: sim, userReturnsAfter: userReturnsAfter)
      applied.append(fault)
    }
    sim.run(until: end + subject.settle)
    let outcome = ExplorationOutcome(
      containerDirectory: subject.container(sim), filesAtEnd: filesAtEnd,
      files: readsFiles ? subject.outcomeFiles(sim) : [:],
      account: subject.account(sim), trace: sim.trace)
    var lints: [String: String] = [:]
    for event in sim.trace.events where event.kind == TraceKind.lint.rawValue {
      guard case .string(let rule)? = event["rule"], lints[rule] == nil else { continue }
      if case .string(let message)? = event["message"] { lints[rule] = message } else { lints[rule] = rule }
    }
    let message = property?(outcome)
    return RunRecord(
      applied: applied, context: context, outcome: outcome, lints: lints, propertyMessage: message,
      world: (sim.deviceModel, sim.server, sim.policy),
      bytesWastedInCreationOrder: sim.allTasks.map(\.bytesWasted))
  }

  static func apply(_ fault: Fault, to sim: Simulation, userReturnsAfter: SimDuration) {
    switch fault.kind {
    case .terminate: sim.terminateApp()
    case .forceQuit:
      sim.forceQuitApp()
      sim.schedule(at: sim.now + userReturnsAfter) { $0.launchApp() }
    case .reboot:
      sim.rebootDevice()
      sim.schedule(at: sim.now + userReturnsAfter) { $0.launchApp() }
    case .network(let kind, let lasting):
      let before = sim.network
      var during = NetworkState.offline
      if kind == .interfaceChange {
        let other: InterfaceKind = before.interface == .wifi ? .cellular : .wifi
        during = NetworkState(interface: other)
      }
      let start = sim.now
      var changes: [(at: SimTime, change: ConditionStream.Change)] = [
        (start, .network(during)), (start + lasting, .network(before)),
      ]
      sim.addConditionStream(
        ConditionStream {
          changes.isEmpty ? nil : changes.removeFirst()
        })
    }
  }

  /// What the app was doing now: its last callback in the trace and its pending timers.
  static func doing(_ sim: Simulation, _ subject: ExplorationSubject) -> String {
    var text = "the app was \(sim.appState.rawValue)"
    if let last = sim.trace.events.last(where: isAppCallback) {
      text += ", its last callback \(last.kind) at \(last.time)"
    }
    let timers = subject.pendingTimers(sim)
    if timers.isEmpty {
      text += ", no timer pending"
    } else {
      text +=
        ", timers pending for "
        + timers.map { $0 <= sim.now ? "its next resume" : "\($0)" }.joined(separator: ", ")
    }
    return text
  }

  /// A trace event that stands for app code having run: a delegate call, a launch or resume,
  /// entering the background, the completion handler.
  static func isAppCallback(_ event: TraceEvent) -> Bool {
    if event.kind.hasPrefix("delegate.") { return true }
    switch event.kind {
    case TraceKind.appLaunch.rawValue, TraceKind.appResume.rawValue, TraceKind.appBackground.rawValue,
      TraceKind.appForeground.rawValue, TraceKind.appCompletionHandlerCalled.rawValue,
      TraceKind.appBackgroundTaskExpired.rawValue:
      return true
    default: return false
    }
  }
}
