import ScenarioKit
import Testing

@testable import SweepKit

@Suite struct SweepPlanTests {
  @Test(arguments: [
    ("rateLimiter.growth=1.5,2,3", "rateLimiter.growth", ["1.5", "2", "3"]),
    ("policy.rateLimiter.maxDelay=10m,null", "rateLimiter.maxDelay", ["10m", "null"]),
    (
      #"discretionary.requires=["wifi","charging"],[]"#, "discretionary.requires",
      [#"["wifi","charging"]"#, "[]"]
    ),
  ])
  func parsesParameters(text: String, key: String, values: [String]) throws {
    #expect(try SweepParameter.parse(text) == SweepParameter(key: key, values: values))
  }

  @Test(arguments: ["growth", "rateLimiter.growth=", "rateLimiter.growth=1,,2", "rateLimiter.growth=2,2"])
  func refusesBadParameters(text: String) {
    #expect(throws: SweepError.self) { try SweepParameter.parse(text) }
  }

  @Test func checksKnobsAndValuesBeforeRunning() throws {
    let plan = try SweepPlan(parameters: [try SweepParameter.parse("rateLimiter.grwth=2")], seeds: [1])
    #expect(
      throws: SweepError(
        "--param 'rateLimiter.grwth=2': unknown policy knob 'rateLimiter.grwth'; did you mean 'rateLimiter.growth'?"
      )
    ) {
      _ = try plan.policies(base: .defaults)
    }
    let bad = try SweepPlan(
      parameters: [try SweepParameter.parse("rateLimiter.firstDelay=1m,soon")], seeds: [1])
    #expect(throws: SweepError.self) { _ = try bad.policies(base: .defaults) }
  }

  @Test func seedsParseAndPrintBack() throws {
    #expect(try SeedList.parse("1-3,7,9-10") == [1, 2, 3, 7, 9, 10])
    #expect(SeedList.text([1, 2, 3, 7, 9, 10]) == "1-3,7,9-10")
    #expect(throws: SweepError.self) { try SeedList.parse("5-1") }
    #expect(throws: SweepError.self) { try SeedList.parse("1-3,2") }
  }

  /// Repeats are refused at any size (they once were only below 100,000 seeds), quickly.
  @Test func repeatedSeedsAreRefusedAtAnySize() {
    #expect(throws: SweepError("--seeds lists seed 1 twice")) { try SeedList.parse("1-100000,1-100000") }
    #expect(throws: SweepError("--seeds lists seed 999998 twice")) { try SeedList.parse("0-999998,999998") }
    #expect(throws: SweepError.self) { try SeedList.parse("1-1000001") }
    #expect(throws: SweepError.self) { try SeedList.parse("0-18446744073709551615") }
  }

  /// Ten knobs of 100 values once overflowed `pointCount`; five of 100 tried to allocate a
  /// terabyte. Both are refused before anything is built, as is one seed over the limit.
  @Test(arguments: [(10, 100, 1), (5, 100, 1), (2, 1000, 2), (20, 10, 1)])
  func oversizedGridsAreRefusedBeforeTheyAreBuilt(knobs: Int, values: Int, seeds: Int) throws {
    let parameters = (0..<knobs).map { k in
      SweepParameter(key: "k\(k)", values: (0..<values).map(String.init))
    }
    #expect(throws: SweepError.self) {
      try SweepPlan(parameters: parameters, seeds: (0..<seeds).map(UInt64.init))
    }
  }

  @Test func theLimitItselfIsAccepted() throws {
    let parameters = (0..<3).map { k in SweepParameter(key: "k\(k)", values: (0..<100).map(String.init)) }
    let plan = try SweepPlan(parameters: parameters, seeds: [1])
    #expect(plan.runCount == SweepLimits.maxRuns)
    #expect(throws: SweepError.self) { try SweepPlan(parameters: parameters, seeds: [1, 2]) }
  }

  @Test func gridVariesTheFirstParameterSlowestAndSeedsFastest() throws {
    let plan = try SweepPlan(
      parameters: [try SweepParameter.parse("a=1,2"), try SweepParameter.parse("b=x,y,z")], seeds: [7, 8])
    #expect(plan.pointCount == 6)
    #expect(plan.runCount == 12)
    #expect(
      (0..<6).map(plan.values(ofPoint:)) == [
        ["1", "x"], ["1", "y"], ["1", "z"], ["2", "x"], ["2", "y"], ["2", "z"],
      ])
    #expect(plan.run(5) == (2, 8))
  }

  @Test(arguments: [1, 2, 3, 7, 100])
  func shardsPartitionTheRuns(count: Int) {
    let shards = (1...count).map { SweepShard(index: $0, count: count) }
    for run in 0..<50 {
      #expect(shards.filter { $0.contains(run: run) }.count == 1)
    }
  }

  @Test(arguments: ["0/3", "4/3", "1/0", "x/2", "1-2", "1/1000001", "1/99999999999999999999"])
  func refusesBadShards(text: String) {
    #expect(throws: SweepError.self) { try SweepShard.parse(text) }
  }

  @Test func secondsAreFixedThreeDecimals() {
    #expect(RunTable.seconds(.nanoseconds(1_234_500_000)) == "1.235")
    #expect(RunTable.seconds(.nanoseconds(999_999_999)) == "1.000")
    #expect(RunTable.seconds(.seconds(60)) == "60.000")
    #expect(RunTable.seconds(.zero) == "0.000")
  }

  @Test func csvQuotesAndReadsBack() throws {
    let records = [["run", "k"], ["0", #"["a","b"]"#], ["1", "plain"]]
    let text = CSV.render(records)
    #expect(text == "run,k\n0,\"[\"\"a\"\",\"\"b\"\"]\"\n1,plain\n")
    #expect(try CSV.parse(Array(text.utf8), file: "x").map(\.cells) == records)
    #expect(try CSV.parse(Array("a\r\nb,\"x\ny\"\nc\n".utf8), file: "x").map(\.line) == [1, 2, 4])
    #expect(throws: SweepError("x: line 2: a quoted cell is not closed; was the file cut short?")) {
      try CSV.parse(Array("a\n\"b,c\n".utf8), file: "x")
    }
  }

  @Test func metricCellsAreCheckedByColumn() {
    #expect(RunTable.isValid("12", metric: "tasks"))
    #expect(!RunTable.isValid("-1", metric: "tasks"))
    #expect(!RunTable.isValid("99999999999999999999", metric: "bytesOnWire"))
    #expect(RunTable.isValid("1.250", metric: "endSeconds"))
    #expect(!RunTable.isValid("1.25", metric: "endSeconds"))
    #expect(!RunTable.isValid("", metric: "endSeconds"))
    #expect(RunTable.isValid("", metric: "allDoneSeconds"))
    #expect(RunTable.isValid("oneTaskPerWake resumeDataReused", metric: "lintRules"))
    #expect(!RunTable.isValid("a\u{1b}[2J", metric: "lintRules"))
  }

  @Test func percentilesAreNearestRank() {
    #expect(RunMetrics.percentile([1, 2, 3, 4], 0.5) == 2)
    #expect(RunMetrics.percentile(Array(1...20), 0.95) == 19)
    #expect(RunMetrics.percentile([5], 0.95) == 5)
    #expect(RunMetrics.percentile([Int](), 0.5) == nil)
  }
}
