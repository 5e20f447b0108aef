import FuzzKit
import ScenarioKit
import SimKernel
import TransferEngine

/// A finding as a JSON scenario that `bgsim run` and `ScenarioRunner.run(file:app:)` accept: the
/// world's device, server and policy, the user's launches and leaves as the baseline traced them,
/// the faults on the timeline (network faults as device network steps) and the final launch.
/// What the app does itself (a tap on Download) is Swift, not in the file: the Swift app or the
/// scenario's scripted app does it.
enum ReplayScenario {
  static func write(
    world: (device: DeviceModel, server: ServerModel, policy: Policy), duration: SimDuration, seed: UInt64,
    faults: [Fault], rule: String, baseline: TraceLog, returns: SimDuration, base: Scenario? = nil
  ) -> String {
    var device = world.device
    var timeline: [(SimTime, Int, TimelineAction)] = []
    if let base {
      // The scenario's own timeline (its app's actions too), then the user's last launch.
      timeline = base.timeline.map { ($0.at, 0, $0.action) }
      timeline.append((SimTime(base.duration), 1, .launch))
    }
    for event in baseline.events where base == nil {
      switch event.kind {
      case TraceKind.appLaunch.rawValue where event["reason"] == .string("user"):
        timeline.append((event.time, 0, .launch))
      case TraceKind.appForeground.rawValue: timeline.append((event.time, 0, .launch))
      case TraceKind.appBackground.rawValue: timeline.append((event.time, 0, .background))
      default: break
      }
    }
    for fault in faults {
      switch fault.kind {
      case .terminate: timeline.append((fault.at, 1, .terminate))
      case .forceQuit:
        timeline.append((fault.at, 1, .forceQuit))
        timeline.append((fault.at + returns, 1, .launch))
      case .reboot:
        timeline.append((fault.at, 1, .reboot))
        timeline.append((fault.at + returns, 1, .launch))
      case .network(let kind, let lasting):
        let before = network(of: device, at: fault.at)
        let during =
          kind == .offline
          ? NetworkState.offline : NetworkState(interface: before.interface == .wifi ? .cellular : .wifi)
        device.network.append(Step(at: fault.at, during))
        device.network.append(Step(at: fault.at + lasting, before))
        device.network.sort { $0.at < $1.at }
      }
    }
    let entries = timeline.enumerated().sorted { a, b in
      (a.element.0, a.element.1, a.offset) < (b.element.0, b.element.1, b.offset)
    }.enumerated().map { index, item in
      TimelineEntry(at: item.element.0, action: item.element.2, path: "timeline[\(index)]")
    }
    let faultText = faults.isEmpty ? "no fault" : faults.map(\.description).joined(separator: "; ")
    let scenario = Scenario(
      file: "replay.json", name: (base.map { $0.name + "-" } ?? "") + "explore-\(rule)",
      description:
        "bgsim exploration finding \(rule): \(faultText)"
        + (base == nil ? "; the app's own actions (taps) are not in the file" : ""),
      seed: seed, duration: duration, device: device, server: world.server, policy: world.policy,
      app: base?.app ?? AppSpec(), timeline: entries)
    return ScenarioJSONWriter.write(scenario)
  }

  /// The device's network at `time`, from its steps.
  static func network(of device: DeviceModel, at time: SimTime) -> NetworkState {
    device.network.last { $0.at <= time }?.value ?? NetworkState(interface: .wifi)
  }
}
