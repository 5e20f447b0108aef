import Foundation

/// `sweep.json`: what a sweep output directory holds, so that `sweep-merge` can check that its
/// shards belong together and rebuild the summary from the files alone.
public struct SweepManifest: Hashable, Sendable, Codable {
  /// Version of this layout.
  public var format = 1
  /// The scenario file as named on the command line.
  public var scenario: String
  /// The scenario's `name`.
  public var name: String
  public var parameters: [SweepParameter]
  /// `1-64` or `1-10,42`.
  public var seeds: String
  /// Runs of the whole grid (not of this shard).
  public var runs: Int
  /// Metrics charted, one SVG each.
  public var charts: [String]
  /// `K/N` for a shard's output; absent for a whole sweep or a merge.
  public var shard: String?

  public init(
    scenario: String, name: String, parameters: [SweepParameter], seeds: String, runs: Int, charts: [String],
    shard: String? = nil
  ) {
    self.scenario = scenario
    self.name = name
    self.parameters = parameters
    self.seeds = seeds
    self.runs = runs
    self.charts = charts
    self.shard = shard
  }

  public var pointCount: Int { parameters.reduce(1) { $0 * $1.values.count } }

  /// Stable text: sorted keys, two-space indent, a final newline.
  public var json: String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let data = (try? encoder.encode(self)) ?? Data()
    return String(decoding: data, as: UTF8.self) + "\n"
  }

  public static func parse(_ data: Data, file: String) throws(SweepError) -> SweepManifest {
    do {
      return try JSONDecoder().decode(SweepManifest.self, from: data)
    } catch {
      throw SweepError("\(file): not a sweep.json written by bgsim sweep (\(error))")
    }
  }
}
