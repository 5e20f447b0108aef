import ScenarioKit
import SimKernel

/// One bug an exploration found: the rule it broke, what differs, and how to replay it.
public struct Finding: Sendable, CustomStringConvertible {
  /// `terminationNotTransparent`, `forceQuitNotRecovered`, `networkFaultNotRecovered`,
  /// `rebootNotRecovered`, `nondeterministic`, a lint rule, or `property`.
  public var rule: String
  /// What differs, in words (the files, the account lines, the trace line), and what the app
  /// was doing at each fault (its last callback, its pending timers).
  public var message: String
  /// Shrunk: the fewest faults that still give this rule.
  public var faults: [Fault]
  /// The seed the world was made with (`Exploration.replay`'s `seed`).
  public var seed: UInt64
  /// The trace of the run with `faults`.
  public var trace: [TraceEvent]
  /// A JSON scenario: the world's device, server and policy, the user's launches and leaves as
  /// the baseline traced them, and the faults on the timeline.
  public var replayScenario: String
  /// How many of the exploration's runs (kill points and seeds) reached this finding.
  public var reachedBy: Int
  /// Bytes each task of `trace` moved and then threw away (a restart from zero), by task name,
  /// summed over the tasks of one name; derived from `bytesWastedInCreationOrder`.
  public var bytesWastedByTask: [String: Int64] {
    TaskAccounts.wastedByName(trace, inCreationOrder: bytesWastedInCreationOrder)
  }
  /// Each task's own wasted bytes, in the order the tasks were created (names may repeat, or
  /// differ only in their Unicode form): what the trace does not carry, for the report page's
  /// task accounts.
  public var bytesWastedInCreationOrder: [Int64] = []
  /// Which run first reached it and how it was grouped: what `bgsim explore-merge` needs to
  /// join shards into the findings of one whole exploration. Nil for a replay.
  public var origin: FindingOrigin?

  /// A finding as the exploration reports it.
  public init(
    rule: String, message: String, faults: [Fault], seed: UInt64, trace: [TraceEvent], replayScenario: String,
    reachedBy: Int, origin: FindingOrigin? = nil
  ) {
    self.rule = rule
    self.message = message
    self.faults = faults
    self.seed = seed
    self.trace = trace
    self.replayScenario = replayScenario
    self.reachedBy = reachedBy
    self.origin = origin
  }

  /// The Swift call that replays this finding, to paste into a regression test.
  public var replayCall: String {
    let faults = faults.map(\.swiftSource).joined(separator: ", ")
    return "Exploration.replay(world, app: app, faults: [\(faults)], seed: \(seed))"
  }

  /// One paragraph: the rule, how often it was reached, the faults, the message and the replay call.
  public var description: String {
    let points = reachedBy == 1 ? "1 run" : "\(reachedBy) runs"
    let faultText = faults.isEmpty ? "no fault" : faults.map(\.description).joined(separator: "; ")
    return "\(rule) (reached by \(points)): \(faultText)\n\(message)\nreplay: \(replayCall)"
  }
}

/// What an exploration did and found.
public struct ExplorationReport: Sendable, CustomStringConvertible {
  /// One per rule and shrunk fault list; empty when the app held.
  public var findings: [Finding]
  /// Kill points found in the baseline (before points with the same observable state were skipped).
  public var killPoints: Int
  /// Kill points run (distinct observable states).
  public var killPointsRun: Int
  /// Runs made with faults (kill points and seeds, this shard's), each played twice; shrinking not counted.
  public var runs: Int

  /// A report as the exploration makes it.
  public init(findings: [Finding], killPoints: Int, killPointsRun: Int, runs: Int) {
    self.findings = findings
    self.killPoints = killPoints
    self.killPointsRun = killPointsRun
    self.runs = runs
  }

  /// The counts, then each finding's paragraph.
  public var description: String {
    var text =
      "\(killPoints) kill points (\(killPointsRun) with distinct states run), \(runs) runs: "
      + (findings.isEmpty ? "no finding" : findings.count == 1 ? "1 finding" : "\(findings.count) findings")
    for finding in findings { text += "\n\n" + finding.description }
    return text
  }
}

/// Where a finding came from in an exploration: shards of one exploration reach the same
/// finding from different runs, and the merge keeps the first run's, as the whole exploration does.
public struct FindingOrigin: Sendable, Hashable, Codable {
  /// The rule and the difference the runs were grouped by.
  public var signature: String
  /// The position of the first run that reached it among all the exploration's runs (kill points,
  /// then seeds), or -1 for the run without faults, which every shard plays.
  public var firstRun: Int

  /// An origin as the explorer records it.
  public init(signature: String, firstRun: Int) {
    self.signature = signature
    self.firstRun = firstRun
  }
}
