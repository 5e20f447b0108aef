import ScenarioKit
import SimKernel
import TransferEngine

/// Shrinks a failing scenario to a small one that fails the same way (same `FailureSignature`).
///
/// Greedy delta debugging over the scenario's lists (timeline entries, reactions, server changes,
/// faults and resources, network and power steps, sessions): remove halves, then quarters, down
/// to single items; then halve the duration, return policy, behaviour and session settings to
/// their defaults and drop optional task fields. A candidate is kept when it still loads and
/// still fails with the same signature; passes repeat until none makes progress.
public struct Minimizer {
  public let signature: FailureSignature
  /// Candidate runs allowed in all (each is one or two simulations).
  public var budget: Int
  public private(set) var attempts = 0

  public init(signature: FailureSignature, budget: Int = 2_000) {
    self.signature = signature
    self.budget = budget
  }

  /// The smallest failing scenario found, starting from `failure`.
  public mutating func minimize(_ failure: FuzzFailure) -> FuzzFailure {
    var best = failure
    var progress = true
    while progress && attempts < budget {
      progress = false
      progress = shrinkList(\.timeline, &best) || progress
      progress = shrinkList(\.app.behavior.reactions, &best) || progress
      progress = shrinkList(\.server.changes, &best) || progress
      progress = shrinkList(\.server.faults, &best) || progress
      progress = shrinkList(\.device.network, &best) || progress
      progress = shrinkList(\.device.power, &best) || progress
      progress = shrinkList(\.server.resources, &best) || progress
      progress = shrinkList(\.app.sessions, &best) || progress
      progress = shrinkDuration(&best) || progress
      progress = simplify(&best) || progress
    }
    return best
  }

  /// Keeps `candidate` if it fails the same way.
  mutating func tryCandidate(_ candidate: Scenario, _ best: inout FuzzFailure) -> Bool {
    guard attempts < budget else { return false }
    attempts += 1
    guard let failure = FuzzRunner.check(candidate), failure.signature == signature else { return false }
    best = failure
    return true
  }

  /// Removes chunks of a list, largest first.
  mutating func shrinkList<E>(_ list: WritableKeyPath<Scenario, [E]>, _ best: inout FuzzFailure) -> Bool {
    var changed = false
    var chunk = max(1, best.scenario[keyPath: list].count / 2)
    while attempts < budget && !best.scenario[keyPath: list].isEmpty {
      var start = 0
      while start < best.scenario[keyPath: list].count && attempts < budget {
        var candidate = best.scenario
        let end = min(start + chunk, candidate[keyPath: list].count)
        candidate[keyPath: list].removeSubrange(start..<end)
        if tryCandidate(candidate, &best) { changed = true } else { start += chunk }
      }
      if chunk == 1 { break }
      chunk /= 2
    }
    return changed
  }

  /// Halves the duration while the failure stays, dropping what falls after the new end.
  mutating func shrinkDuration(_ best: inout FuzzFailure) -> Bool {
    var changed = false
    while best.scenario.duration > .seconds(1) && attempts < budget {
      var candidate = best.scenario
      let half = SimDuration(nanoseconds: candidate.duration.nanoseconds / 2)
      let end = SimTime(half)
      candidate.duration = half
      candidate.timeline.removeAll { $0.at > end }
      candidate.server.changes.removeAll { $0.at > end }
      candidate.device.network.removeAll { $0.at > end }
      candidate.device.power.removeAll { $0.at > end }
      guard tryCandidate(candidate, &best) else { break }
      changed = true
    }
    return changed
  }

  /// Settings back to their defaults, one group at a time.
  mutating func simplify(_ best: inout FuzzFailure) -> Bool {
    var changed = false
    var edits: [(inout Scenario) -> Void] = [
      { $0.policy = .defaults },
      { $0.app.behavior = AppBehavior(reactions: $0.app.behavior.reactions) },
      { $0.device.backgroundAppRefresh = true },
    ]
    for i in best.scenario.app.sessions.indices {
      edits.append { s in
        let c = s.app.sessions[i]
        s.app.sessions[i] = SessionConfiguration(identifier: c.identifier, kind: c.kind)
      }
    }
    for i in best.scenario.timeline.indices {
      edits.append { s in
        switch s.timeline[i].action {
        case .app(.download(let r)):
          s.timeline[i].action = .app(.download(TaskRequest(session: r.session, url: r.url, name: r.name)))
        case .app(.upload(let r, let from, let size)):
          s.timeline[i].action = .app(
            .upload(TaskRequest(session: r.session, url: r.url, name: r.name), from: from, size: size))
        default: break
        }
      }
    }
    for edit in edits where attempts < budget {
      var candidate = best.scenario
      edit(&candidate)
      if ScenarioJSONWriter.write(candidate) == best.json { continue }
      if tryCandidate(candidate, &best) { changed = true }
    }
    return changed
  }
}

extension Scenario {
  /// A rough size for reports: entries in the scenario's lists.
  public var itemCount: Int {
    timeline.count + app.behavior.reactions.count + server.changes.count + server.faults.count
      + server.resources.count + device.network.count + device.power.count + app.sessions.count
  }
}
