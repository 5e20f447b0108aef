import SimKernel
import Testing

@testable import TransferEngine

/// Properties that must hold for any run: 1,000 seeded random runs (`RandomRun`), each with the
/// engine's invariants checked after every event, then checked as a whole from the tasks and the
/// trace, and replayed once to compare traces byte for byte.
@Suite("Properties over random runs")
struct PropertyTests {
  static let batches = 20
  static let seedsPerBatch = 50

  @Test(
    "every random run accounts for every byte, ends each task once and repeats exactly",
    arguments: 0..<batches)
  func randomRuns(batch: Int) {
    for offset in 0..<Self.seedsPerBatch {
      let seed = UInt64(batch * Self.seedsPerBatch + offset)
      let first = RandomRun(seed: seed)
      first.run()
      let violations = Self.violations(of: first)
      #expect(violations.isEmpty, "seed \(seed):\n\(violations.joined(separator: "\n"))")
      let second = RandomRun(seed: seed)
      second.run()
      #expect(
        first.sim.trace.jsonLines == second.sim.trace.jsonLines, "seed \(seed): the replay's trace differs")
    }
  }

  @Test("the random runs exercise what they are meant to")
  func coverage() {
    var seen: [String: Int] = [:]
    for seed in 0..<UInt64(300) {
      let run = RandomRun(seed: seed)
      run.run()
      for event in run.sim.trace.events {
        seen[event.kind, default: 0] += 1
        if event.kind == "task.interrupted" || event.kind == "task.deferred",
          case .string(let reason) = event["reason"]
        {
          seen["\(event.kind) \(reason)", default: 0] += 1
        }
      }
      for task in run.sim.allTasks where task.attempts > 1 {
        if task.resumeFrom != nil { seen["retry of a task made from resume data", default: 0] += 1 }
        if !task.isDownload && task.bytes.responseBody > 0 {
          seen["retry of an upload with a response", default: 0] += 1
        }
        if task.isDownload && task.bytesWasted > 0 { seen["download restarted at zero", default: 0] += 1 }
      }
    }
    for what in [
      "task.finished", "task.failed", "task.cancelled", "task.lost", "task.retry", "task.restartedFromZero",
      "task.interrupted interfaceChanged", "task.interrupted networkLost",
      "task.interrupted connectionDropped",
      "task.deferred cellularNotAllowed", "task.deferred constrainedNotAllowed",
      "task.deferred earliestBegin",
      "app.terminate", "app.launch", "delegate.handleEvents", "lint", "retry of a task made from resume data",
      "retry of an upload with a response", "download restarted at zero",
    ] {
      #expect(seen[what, default: 0] > 0, "no \(what) in 300 random runs")
    }
  }

  /// What a run broke, one line per violation (empty when all properties hold).
  static func violations(of run: RandomRun) -> [String] {
    var found: [String] = []
    if let violation = run.sim.invariantViolation { found.append(violation.description) }
    let events = run.sim.trace.events

    // Time never goes back.
    for (previous, event) in zip(events, events.dropFirst()) where event.time < previous.time {
      found.append("time went back from \(previous.time) to \(event.time) at \(event.kind)")
    }

    // Exactly one terminal event per task that ended, none for the others.
    let terminal: Set<String> = ["task.finished", "task.failed", "task.cancelled", "task.lost"]
    var endings: [String: Int] = [:]
    var finished: Set<String> = []
    for event in events where terminal.contains(event.kind) {
      guard case .string(let name) = event["task"] else { continue }
      endings[name, default: 0] += 1
      if event.kind == "task.finished" { finished.insert(name) }
    }
    for task in run.sim.allTasks {
      let expected = task.state == .completed ? 1 : 0
      if endings[task.name, default: 0] != expected {
        found.append(
          "\(task.name) has \(endings[task.name, default: 0]) terminal events, expected \(expected)")
      }
    }

    // No start or retry while the interface is down or not allowed for the task's session.
    var network = NetworkState.offline
    for event in events {
      if event.kind == "network.change" {
        network = Self.network(from: event)
      } else if event.kind == "task.started" || event.kind == "task.retry",
        case .string(let name) = event["task"], let configuration = run.configurationOf[name]
      {
        if let problem = Self.disallowed(network, for: configuration) {
          found.append("\(name) \(event.kind) at \(event.time) while \(problem)")
        }
      }
    }

    // Every byte accounted for.
    for task in run.sim.allTasks {
      if task.isDownload {
        if task.bytesOnWire + task.inheritedBytes != task.countOfBytesReceived + task.bytesWasted {
          found.append(
            "\(task.name): \(task.bytesOnWire) on the wire + \(task.inheritedBytes) from resume data != "
              + "\(task.countOfBytesReceived) received + \(task.bytesWasted) wasted")
        }
        if finished.contains(task.name), (200..<300).contains(task.statusCode ?? 0) {
          let size = run.sizes[task.currentURL]?[task.bytes.fetchingValidator ?? ""]
          if task.countOfBytesReceived != size {
            found.append(
              "\(task.name) finished with \(task.countOfBytesReceived) bytes of a \(size ?? -1)-byte resource"
            )
          }
        }
      } else if task.bytesOnWire != task.countOfBytesSent + task.countOfBytesReceived + task.bytesWasted {
        found.append(
          "\(task.name): \(task.bytesOnWire) on the wire != \(task.countOfBytesSent) sent + "
            + "\(task.countOfBytesReceived) received + \(task.bytesWasted) wasted")
      }
    }
    return found
  }

  /// The network a `network.change` event describes (rates do not matter here).
  static func network(from event: TraceEvent) -> NetworkState {
    guard case .string(let name) = event["interface"], let kind = InterfaceKind(rawValue: name), kind != .none
    else {
      return .offline
    }
    return NetworkState(
      interface: kind, expensive: event["expensive"] == .bool(true),
      constrained: event["constrained"] == .bool(true))
  }

  /// Why `configuration` may not use `network`, or nil when it may.
  static func disallowed(_ network: NetworkState, for configuration: SessionConfiguration) -> String? {
    if !network.isUp { return "offline" }
    if network.interface == .cellular && !configuration.allowsCellularAccess { return "on cellular" }
    if network.expensive && !configuration.allowsExpensiveNetworkAccess { return "on an expensive network" }
    if network.constrained && !configuration.allowsConstrainedNetworkAccess {
      return "on a constrained network"
    }
    return nil
  }
}
