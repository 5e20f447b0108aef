import Foundation

/// One finding as `bgsim explore` writes it (findings.json, summary.txt, its replay scenario),
/// with its origin: all a shard must keep for `bgsim explore-merge` to write the same files as
/// the whole exploration.
public struct FindingRecord: Codable, Sendable, Equatable {
  /// The rule broken.
  public var rule: String
  /// How many runs reached it.
  public var reachedBy: Int
  /// The world's seed.
  public var seed: UInt64
  /// Each shrunk fault as findings.json writes it.
  public var faultsJSON: [String]
  /// Each shrunk fault in words.
  public var faultsText: [String]
  /// What differs and what the app was doing.
  public var message: String
  /// The Swift call that replays it.
  public var replayCall: String
  /// The replay scenario's JSON.
  public var replayScenario: String
  /// The run that first reached it, and its grouping.
  public var origin: FindingOrigin

  /// The record of an explorer's finding.
  public init(_ finding: Finding) {
    rule = finding.rule
    reachedBy = finding.reachedBy
    seed = finding.seed
    faultsJSON = finding.faults.map(FindingsJSON.fault)
    faultsText = finding.faults.map(\.description)
    message = finding.message
    replayCall = finding.replayCall
    replayScenario = finding.replayScenario
    origin = finding.origin ?? FindingOrigin(signature: finding.rule + "\n" + finding.message, firstRun: -1)
  }

  /// The paragraph of summary.txt, as `Finding.description` writes it.
  public var paragraph: String {
    let points = reachedBy == 1 ? "1 run" : "\(reachedBy) runs"
    let faultText = faultsText.isEmpty ? "no fault" : faultsText.joined(separator: "; ")
    return "\(rule) (reached by \(points)): \(faultText)\n\(message)\nreplay: \(replayCall)"
  }

  /// The replay scenario's file name when it is finding `index` (from 0).
  public func replayFile(_ index: Int) -> String { "replay-\(index + 1)-\(rule).json" }
}

/// What one `bgsim explore` wrote, whole or one shard's: the counts and findings, the
/// scenario's identity and the seeds. A shard keeps it as `shard.json` for the merge.
public struct ExploreResult: Codable, Sendable, Equatable {
  /// The format of `shard.json`.
  public var format = 1
  /// The scenario's path as given on the command line.
  public var scenario: String
  /// The SHA-256 of the scenario's bytes, in hex.
  public var scenarioSHA256: String
  /// The bgsim version that explored.
  public var version: String
  /// The `--seeds` text.
  public var seeds: String
  /// This shard's K and N; nil for a whole exploration.
  public var shardIndex: Int?
  /// N.
  public var shardCount: Int?
  /// Kill points the baseline showed.
  public var killPoints: Int
  /// Kill points run.
  public var killPointsRun: Int
  /// Runs made (this shard's).
  public var runs: Int
  /// The findings in the order the exploration reports them.
  public var findings: [FindingRecord]

  /// The result of an exploration.
  public init(
    report: ExplorationReport, scenario: String, scenarioSHA256: String, version: String, seeds: String,
    shard: Shard?
  ) {
    self.scenario = scenario
    self.scenarioSHA256 = scenarioSHA256
    self.version = version
    self.seeds = seeds
    shardIndex = shard?.index
    shardCount = shard?.count
    killPoints = report.killPoints
    killPointsRun = report.killPointsRun
    runs = report.runs
    findings = report.findings.map(FindingRecord.init)
  }

  /// `K/N`, or nil.
  public var shardText: String? { shardIndex.flatMap { k in shardCount.map { "\(k)/\($0)" } } }

  /// The files `bgsim explore` writes into its folder, in the order it writes them: the replay
  /// scenarios, findings.json, summary.txt, and for a shard shard.json.
  public var files: [(name: String, text: String)] {
    var files = findings.enumerated().map { ($1.replayFile($0), $1.replayScenario) }
    files.append(
      ("findings.json", FindingsJSON.render(self, shard: shardText, replayFiles: files.map(\.0))))
    files.append(("summary.txt", summary + "\n"))
    if shardIndex != nil { files.append(("shard.json", shardJSON)) }
    return files
  }

  /// summary.txt, as `ExplorationReport.description` writes it.
  public var summary: String {
    var text =
      "\(killPoints) kill points (\(killPointsRun) with distinct states run), \(runs) runs: "
      + (findings.isEmpty ? "no finding" : findings.count == 1 ? "1 finding" : "\(findings.count) findings")
    for finding in findings { text += "\n\n" + finding.paragraph }
    return text
  }

  /// shard.json: this result as JSON with sorted keys.
  public var shardJSON: String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
    // Encoding strings and integers cannot fail.
    let data = (try? encoder.encode(self)) ?? Data()
    return String(decoding: data, as: UTF8.self) + "\n"
  }
}
