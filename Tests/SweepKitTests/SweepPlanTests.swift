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
    let plan = SweepPlan(parameters: [try SweepParameter.parse("rateLimiter.grwth=2")], seeds: [1])
    #expect(
      throws: SweepError(
        "--param rateLimiter.grwth=2: unknown policy knob 'rateLimiter.grwth'; did you mean 'rateLimiter.growth'?"
      )
    ) {
      _ = try plan.policies(base: .defaults)
    }
    let bad = SweepPlan(parameters: [try SweepParameter.parse("rateLimiter.firstDelay=1m,soon")], seeds: [1])
    #expect(throws: SweepError.self) { _ = try bad.policies(base: .defaults) }
  }

  @Test func seedsParseAndPrintBack() throws {
    #expect(try SeedList.parse("1-3,7,9-10") == [1, 2, 3, 7, 9, 10])
    #expect(SeedList.text([1, 2, 3, 7, 9, 10]) == "1-3,7,9-10")
    #expect(throws: SweepError.self) { try SeedList.parse("5-1") }
    #expect(throws: SweepError.self) { try SeedList.parse("1-3,2") }
  }

  @Test func gridVariesTheFirstParameterSlowestAndSeedsFastest() throws {
    let plan = SweepPlan(
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

  @Test(arguments: ["0/3", "4/3", "1/0", "x/2", "1-2"])
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
    #expect(try CSV.parse(text, file: "x") == records)
  }

  @Test func percentilesAreNearestRank() {
    #expect(RunMetrics.percentile([1, 2, 3, 4], 0.5) == 2)
    #expect(RunMetrics.percentile(Array(1...20), 0.95) == 19)
    #expect(RunMetrics.percentile([5], 0.95) == 5)
    #expect(RunMetrics.percentile([Int](), 0.5) == nil)
  }
}
