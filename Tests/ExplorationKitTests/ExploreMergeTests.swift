import ExplorationKit
import Foundation
import Testing

/// Shards of one exploration merge into what the whole exploration reports, and nothing else merges.
@Suite struct ExploreMergeTests {
  let explorations = ScenarioExplorationTests()

  func result(_ shard: Shard?, seeds: [UInt64] = Array(1...12), sha: String = "abc") -> ExploreResult {
    ExploreResult(
      report: explorations.explore(seeds: seeds, shard: shard), scenario: "maps.json", scenarioSHA256: sha,
      version: "1", seeds: "1-12", shard: shard)
  }

  @Test func threeShardsMergeIntoTheWholeExploration() throws {
    let whole = result(nil)
    let parts = [3, 1, 2].map { result(Shard("\($0)/3")) }
    // Each part went through shard.json, as the command reads it.
    let read = try parts.enumerated().map { index, part in
      (folder: "s\(index)", result: try ExploreMerge.read(Data(part.shardJSON.utf8), folder: "s\(index)"))
    }
    let merged = try ExploreMerge.merge(read)
    #expect(merged == whole)
    #expect(merged.files.map(\.name) == whole.files.map(\.name))
    #expect(merged.files.map(\.text) == whole.files.map(\.text))
    #expect(!whole.findings.isEmpty)
  }

  @Test func shardsOfDifferentExplorationsAreRefused() {
    let one = result(Shard("1/2"))
    let other = result(Shard("2/2"), sha: "def")
    #expect(throws: ExploreError.self) { try ExploreMerge.merge([("a", one), ("b", other)]) }
    var otherSeeds = result(Shard("2/2"))
    otherSeeds.seeds = "1-5"
    #expect(throws: ExploreError.self) { try ExploreMerge.merge([("a", one), ("b", otherSeeds)]) }
    do {
      _ = try ExploreMerge.merge([("a", one), ("b", one)])
      Issue.record("shard 1/2 twice merged")
    } catch {
      #expect(error.message.contains("missing: 2/2"))
      #expect(error.message.contains("given twice: 1/2"))
    }
    #expect(throws: ExploreError.self) { try ExploreMerge.read(Data("{}".utf8), folder: "x") }
  }

  @Test func theShardVariableIsReadFromTheEnvironmentGiven() throws {
    #expect(try ShardEnvironment.shard(in: [:]).get() == nil)
    #expect(try ShardEnvironment.shard(in: ["BGSIM_EXPLORE_SHARD": ""]).get() == nil)
    #expect(try ShardEnvironment.shard(in: ["BGSIM_EXPLORE_SHARD": "2/4"]).get() == Shard("2/4"))
    for bad in ["3/2", "0/2", "1/0", "two", "1/2/3", "-1/2"] {
      guard case .failure(let error) = ShardEnvironment.shard(in: ["BGSIM_EXPLORE_SHARD": bad]) else {
        Issue.record("'\(bad)' accepted")
        continue
      }
      #expect(error.message.contains("BGSIM_EXPLORE_SHARD is '\(bad)', not K/N"))
    }
  }
}
