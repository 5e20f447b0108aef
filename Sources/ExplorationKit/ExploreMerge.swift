import Foundation
import SimKernel

/// Why an exploration's shard setting or shards are refused: the message says what and how to fix it.
public struct ExploreError: Error, Sendable, CustomStringConvertible {
  /// The message.
  public var message: String
  /// An error with `message`.
  public init(_ message: String) { self.message = message }
  /// The message.
  public var description: String { message }
}

/// Joins the shards of one exploration (`bgsim explore --shard K/N`) into the result the whole
/// exploration gives: the same findings in the same order, each from the first run that reached
/// it, with the runs that reached it summed.
public enum ExploreMerge {
  /// Reads a shard's `shard.json` text; `folder` names it in the message.
  public static func read(_ data: Data, folder: String) throws(ExploreError) -> ExploreResult {
    let result: ExploreResult
    do {
      result = try JSONDecoder().decode(ExploreResult.self, from: data)
    } catch {
      throw ExploreError(
        "\(folder)/shard.json is not a shard.json that bgsim explore wrote; run 'bgsim explore --shard K/N --out \(folder)' again"
      )
    }
    guard result.format == 1, let k = result.shardIndex, let n = result.shardCount, (1...n).contains(k) else {
      throw ExploreError(
        "\(folder)/shard.json has no valid shard K/N or an unknown format; run 'bgsim explore --shard K/N' again"
      )
    }
    return result
  }

  /// The merged result; `shards` in any order, each with the folder it came from.
  public static func merge(_ shards: [(folder: String, result: ExploreResult)]) throws(ExploreError)
    -> ExploreResult
  {
    guard let first = shards.first else { throw ExploreError("no shard folders to merge") }
    let count = first.result.shardCount ?? 0
    let sorted = shards.sorted { ($0.result.shardIndex ?? 0) < ($1.result.shardIndex ?? 0) }
    for shard in sorted {
      let r = shard.result
      func differs(_ what: String, _ mine: String, _ theirs: String) -> ExploreError {
        ExploreError(
          "\(shard.folder) has \(what) \(mine) but \(first.folder) has \(theirs): merge only the shards of one 'bgsim explore' (same scenario bytes, seeds and bgsim version)"
        )
      }
      if r.shardCount != count {
        // Shards of different N: each K names a different part.
        throw differs("shard", r.shardText ?? "?", "shard " + (first.result.shardText ?? "?"))
      }
      if r.scenarioSHA256 != first.result.scenarioSHA256 {
        throw differs("the scenario", r.scenario, "other scenario bytes (\(first.result.scenario))")
      }
      if r.seeds != first.result.seeds { throw differs("seeds", r.seeds, "seeds " + first.result.seeds) }
      if r.version != first.result.version {
        throw differs("bgsim", r.version, "bgsim " + first.result.version)
      }
      if r.killPoints != first.result.killPoints || r.killPointsRun != first.result.killPointsRun {
        throw differs(
          "kill points (found/run)", "\(r.killPoints)/\(r.killPointsRun)",
          "kill points \(first.result.killPoints)/\(first.result.killPointsRun)")
      }
    }
    let indices = sorted.map { $0.result.shardIndex ?? 0 }
    guard indices == Array(1...max(1, count)) else {
      let missing = (1...max(1, count)).filter { !indices.contains($0) }.map { "\($0)/\(count)" }
      let twice = Set(indices.filter { i in indices.filter { $0 == i }.count > 1 }).sorted().map {
        "\($0)/\(count)"
      }
      throw ExploreError(
        "the shards do not make one exploration of \(count) parts"
          + (missing.isEmpty ? "" : "; missing: " + missing.joined(separator: ", "))
          + (twice.isEmpty ? "" : "; given twice: " + twice.joined(separator: ", "))
          + "; give each shard's folder once")
    }
    // Each shard lists its findings in the order their first runs came; the run without faults
    // (firstRun -1) is played and counted by every shard.
    // By the signature's bytes, as a single run groups them (`Explorer`).
    var chosen: [WrittenKey: (record: FindingRecord, shard: Int, position: Int)] = [:]
    var reached: [WrittenKey: Int] = [:]
    for (shardNumber, shard) in sorted.enumerated() {
      for (position, record) in shard.result.findings.enumerated() {
        let key = WrittenKey(record.origin.signature)
        reached[key, default: 0] += record.reachedBy
        if let existing = chosen[key], existing.record.origin.firstRun <= record.origin.firstRun { continue }
        chosen[key] = (record, shardNumber, position)
      }
    }
    let ordered = chosen.values.sorted {
      ($0.record.origin.firstRun, $0.shard, $0.position) < ($1.record.origin.firstRun, $1.shard, $1.position)
    }
    var merged = first.result
    merged.scenario = sorted[0].result.scenario
    merged.shardIndex = nil
    merged.shardCount = nil
    merged.runs = sorted.reduce(0) { $0 + $1.result.runs }
    merged.findings = ordered.map { item in
      var record = item.record
      let inBaseline = record.origin.firstRun < 0
      record.reachedBy =
        reached[WrittenKey(record.origin.signature), default: 0] - (inBaseline ? count - 1 : 0)
      return record
    }
    return merged
  }
}
