import ScenarioKit
import SimKernel
import TransferEngine

/// Exploration of a scenario whose app is scripted (`bgsim explore FILE`): the world is the
/// scenario (its timeline plays as written), and the outcome is what the scripted app was told:
/// for each of its tasks, the last completion or file delivered to it.
public enum ScenarioExploration {
  /// The scenario as an exploration subject; `duration` is the scenario's.
  public static func subject(_ scenario: Scenario, settle: SimDuration = .minutes(1)) -> ExplorationSubject {
    var subject = ExplorationSubject(
      duration: scenario.duration, settle: settle,
      makeWorld: { seed in ScenarioRunner.prepare(scenario, seed: seed) },
      container: { _ in nil },
      account: { account(of: $0.trace) })
    subject.scenario = scenario
    subject.reportsBaselineLints = true
    subject.observableExtra = { sim in "\(sim.appState.rawValue)\n" + account(of: sim.trace) }
    return subject
  }

  /// One line per task the app created (by its scenario name, told apart and sorted by its
  /// bytes): the last completion the app's delegate got (`completed 200`, `error -999
  /// userForceQuitApplication`), or `no completion`, and whether a file was delivered.
  public static func account(of trace: TraceLog) -> String {
    var lines: [WrittenKey: String] = [:]
    var delivered = Set<WrittenKey>()
    for event in trace.events {
      guard case .string(let name)? = event["task"] else { continue }
      let task = WrittenKey(name)
      switch event.kind {
      case TraceKind.taskCreated.rawValue:
        if lines[task] == nil { lines[task] = "no completion" }
      case TraceKind.delegateDidFinishDownloading.rawValue:
        delivered.insert(task)
      case TraceKind.delegateDidComplete.rawValue:
        if event["error"] == .string("none") {
          lines[task] = "completed " + (event["status"]?.description ?? "")
        } else {
          let reason = event["reason"].map { " \($0.description)" } ?? ""
          lines[task] = "error " + (event["code"]?.description ?? "") + reason
        }
      default: break
      }
    }
    return lines.keys.sorted().map { name in
      "\(name.text): \(lines[name]!)" + (delivered.contains(name) ? ", file delivered" : "")
    }.joined(separator: "\n")
  }
}
