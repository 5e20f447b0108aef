import Testing

@testable import SweepKit

/// `sweep.json` reads back what it wrote, and refuses every field bgsim could not have written.
@Suite struct SweepManifestTests {
  static let plan = try! SweepPlan(
    parameters: [
      SweepParameter(key: "rateLimiter.growth", values: ["1.5", "2"]),
      SweepParameter(key: "discretionary.requires", values: [#"["wifi","charging"]"#, "[]"]),
    ],
    seeds: [1, 2, 3, 9])

  static var shardManifest: SweepManifest {
    var m = SweepFixtures.manifest(plan, charts: ["allDoneSeconds", "wakes"])
    m.shard = SweepShard(index: 2, count: 3)
    m.execution = SweepExecution(jobs: 2, runs: 5, wallSeconds: 0.1234)
    return m
  }

  @Test func roundTrips() throws {
    let shard = Self.shardManifest
    #expect(try SweepManifest.parse(Array(shard.json.utf8), file: "s.json") == shard)
    #expect(shard.execution == SweepExecution(jobs: 2, wallSeconds: 0.123, runsPerSecond: 40.5))
    var merged = shard
    merged.shard = nil
    merged.execution = nil
    merged.shards = [
      SweepShardRecord(shard: SweepShard(index: 1, count: 2), build: "release, Linux x86_64", execution: nil),
      SweepShardRecord(
        shard: SweepShard(index: 2, count: 2), build: "debug, macOS arm64",
        execution: SweepExecution(jobs: 1, wallSeconds: 3, runsPerSecond: 2.5)),
    ]
    #expect(try SweepManifest.parse(Array(merged.json.utf8), file: "s.json") == merged)
    #expect(shard.json.contains(#""scenarioSHA256": ""#))
    #expect(shard.json.hasSuffix("}\n"))
  }

  /// Replaces the first occurrence of `a` in the shard manifest's text by `b`, parses, and
  /// returns the message.
  func message(_ a: String, _ b: String) -> String? {
    let text = Self.shardManifest.json
    guard let range = text.range(of: a) else { return "test bug: '\(a)' not in the manifest" }
    do {
      _ = try SweepManifest.parse(
        Array(text.replacingCharacters(in: range, with: b).utf8), file: "s/sweep.json")
      return nil
    } catch {
      return error.message
    }
  }

  @Test(arguments: [
    (#""runs": 16"#, #""runs": -1"#, "s/sweep.json: runs (line 11, column 11) must be an integer 0 or more"),
    (
      #""runs": 16"#, #""runs": 9e18"#,
      "runs (line 11, column 11) must be an integer 0 or more, found the number 9e18"
    ),
    (
      #""runs": 16"#, #""runs": 9000000000000000000"#,
      "is 9000000000000000000; the grid's 4 points times 4 seeds make 16"
    ),
    (#""runs": 16"#, #""runs": 17"#, "is 17; the grid's 4 points times 4 seeds make 16"),
    (
      #""format": 2"#, #""format": 1"#,
      "format (line 2, column 13) is 1; this bgsim reads format 2 (the directory was written by an older bgsim"
    ),
    (#""seeds": "1-3,9""#, #""seeds": "1-3,3""#, "seeds lists seed 3 twice"),
    (#""seeds": "1-3,9""#, #""seeds": "1-2000000""#, "asks for more than 1,000,000 seeds"),
    (#""shard": "2/3""#, #""shard": "4/3""#, "shard (line 13, column 12) shard expects K/N with 1 <= K <= N"),
    (
      #""charts": ["allDoneSeconds", "wakes"]"#, #""charts": []"#,
      "charts (line 12, column 13) must be a non-empty array"
    ),
    (
      #""charts": ["allDoneSeconds", "wakes"]"#, #""charts": ["wakes", "wakes"]"#,
      "charts[1] (line 12, column 23) repeats 'wakes'"
    ),
    (#""charts": ["allDoneSeconds", "wakes"]"#, #""charts": ["x"]"#, "is 'x', not a metric of runs.csv"),
    (#""format": 2,"#, #""format": 2, "colour": "blue","#, "unknown field 'colour' (line 2, column 16)"),
    (
      #""scenarioSHA256": ""#, #""scenarioSHA256": "0"#,
      "scenarioSHA256 (line 4, column 21) must be a string of 1 to 64 bytes"
    ),
    (
      #""jobs": 2"#, #""jobs": 0"#,
      "execution.jobs (line 15, column 25) must be an integer from 1 to 1024, found the number 0"
    ),
    (
      #""wallSeconds": 0.123"#, #""wallSeconds": -1"#,
      "execution.wallSeconds (line 15, column 43) must be a number from 0 to 1e9"
    ),
    (#""version": "0.1.0", "#, "", "the field bgsim.version is missing (the object at line 14, column 12)"),
    (#""name": "chain","#, "", "the field name is missing"),
    (
      #"{"key": "rateLimiter.growth", "values": ["1.5", "2"]}"#,
      #"{"key": "rateLimiter.growth", "values": ["1.5", "1.5"]}"#, "lists '1.5' twice"
    ),
    (#""discretionary.requires""#, #""rateLimiter.growth""#, "repeats the knob 'rateLimiter.growth'"),
    ("\n}\n", "\n", "not valid JSON"),
  ])
  func refusesWhatBgsimCannotHaveWritten(original: String, replacement: String, expected: String) {
    let found = message(original, replacement)
    #expect(found?.contains(expected) == true, "\(found ?? "accepted")")
  }
}
