import SimKernel

/// `sweep.json`: what a sweep output directory holds and where it came from, so that
/// `sweep-merge` can check that its shards belong together and rebuild the summary from the
/// files alone.
///
/// Identity (compared by `sweep-merge`): the scenario's SHA-256 and name, the grid, the seeds,
/// the runs, the charts and bgsim's version. Recorded but not compared: the scenario's path as
/// given (`./x.json` and `x.json` are the same file), the build, the shard, and how the run went
/// (`execution`: jobs, wall time, runs per second).
public struct SweepManifest: Hashable, Sendable {
  /// Version of this layout. 2 added the scenario's SHA-256, bgsim's version and build, and
  /// the execution figures.
  public static let format = 2

  /// The scenario file as named on the command line.
  public var scenario: String
  /// SHA-256 of the scenario file's bytes, 64 lowercase hexadecimal digits.
  public var scenarioSHA256: String
  /// The scenario's `name`.
  public var name: String
  public var parameters: [SweepParameter]
  /// `1-64` or `1-10,42`.
  public var seeds: String
  /// Runs of the whole grid (not of this shard).
  public var runs: Int
  /// Metrics charted, one SVG each.
  public var charts: [String]
  /// `K/N` for a shard's output; nil for a whole sweep or a merge.
  public var shard: SweepShard?
  public var bgsim: SweepBuild
  /// How this sweep or shard ran; nil for a merge, which lists its shards' instead.
  public var execution: SweepExecution?
  /// A merge's inputs, by shard.
  public var shards: [SweepShardRecord]

  public init(
    scenario: String, scenarioSHA256: String, name: String, parameters: [SweepParameter], seeds: String,
    runs: Int, charts: [String], shard: SweepShard? = nil, bgsim: SweepBuild,
    execution: SweepExecution? = nil,
    shards: [SweepShardRecord] = []
  ) {
    self.scenario = scenario
    self.scenarioSHA256 = scenarioSHA256
    self.name = name
    self.parameters = parameters
    self.seeds = seeds
    self.runs = runs
    self.charts = charts
    self.shard = shard
    self.bgsim = bgsim
    self.execution = execution
    self.shards = shards
  }

  /// Grid points (the manifest has been checked: no overflow).
  public var pointCount: Int { parameters.reduce(1) { $0 * $1.values.count } }

  /// Stable text: fixed key order, two-space indent, a final newline.
  public var json: String {
    func list(_ items: [String]) -> String { "[" + items.map(JSONText.quoted).joined(separator: ", ") + "]" }
    var lines = [
      "\"format\": \(Self.format)", "\"scenario\": \(JSONText.quoted(scenario))",
      "\"scenarioSHA256\": \(JSONText.quoted(scenarioSHA256))", "\"name\": \(JSONText.quoted(name))",
      "\"parameters\": [\n"
        + parameters.map { "    {\"key\": \(JSONText.quoted($0.key)), \"values\": \(list($0.values))}" }
        .joined(separator: ",\n") + "\n  ]",
      "\"seeds\": \(JSONText.quoted(seeds))", "\"runs\": \(runs)", "\"charts\": \(list(charts))",
    ]
    if let shard { lines.append("\"shard\": \(JSONText.quoted(shard.description))") }
    lines.append(
      "\"bgsim\": {\"version\": \(JSONText.quoted(bgsim.version)), \"build\": \(JSONText.quoted(bgsim.build))}"
    )
    if let execution { lines.append("\"execution\": \(execution.json)") }
    if !shards.isEmpty {
      lines.append("\"shards\": [\n" + shards.map { "    " + $0.json }.joined(separator: ",\n") + "\n  ]")
    }
    return "{\n" + lines.map { "  " + $0 }.joined(separator: ",\n") + "\n}\n"
  }
}

/// Which bgsim wrote a sweep. Shards merge only when their versions agree; the build (debug or
/// release, platform) is recorded for the reader and does not change results.
public struct SweepBuild: Hashable, Sendable {
  /// `0.1.0`.
  public var version: String
  /// `release, Linux x86_64`.
  public var build: String

  public init(version: String, build: String) {
    self.version = version
    self.build = build
  }

  /// This binary's build: configuration, operating system and processor.
  public static func current(version: String) -> SweepBuild {
    #if DEBUG
      let configuration = "debug"
    #else
      let configuration = "release"
    #endif
    #if os(Linux)
      let system = "Linux"
    #elseif os(macOS)
      let system = "macOS"
    #else
      let system = "other OS"
    #endif
    #if arch(x86_64)
      let processor = "x86_64"
    #elseif arch(arm64)
      let processor = "arm64"
    #else
      let processor = "other processor"
    #endif
    return SweepBuild(version: version, build: "\(configuration), \(system) \(processor)")
  }
}

/// How one sweep or shard ran, for the reader: never compared, and the only part of the
/// output that differs between two runs of the same sweep.
public struct SweepExecution: Hashable, Sendable {
  /// Worker threads.
  public var jobs: Int
  /// Wall time of the simulations (not of loading or writing), to the millisecond.
  public var wallSeconds: Double
  /// Runs of this sweep or shard per second of wall time, to a tenth.
  public var runsPerSecond: Double

  public init(jobs: Int, wallSeconds: Double, runsPerSecond: Double) {
    self.jobs = jobs
    self.wallSeconds = wallSeconds
    self.runsPerSecond = runsPerSecond
  }

  /// Rounds the figures as the file writes them, so a manifest read back equals the one written.
  public init(jobs: Int, runs: Int, wallSeconds: Double) {
    let wall = max(0, wallSeconds)
    self.jobs = jobs
    self.wallSeconds = (wall * 1000).rounded() / 1000
    // At most 1e9, the most the reader accepts (a clock that barely moved could give more).
    self.runsPerSecond = wall > 0 ? min(1e9, (Double(runs) / wall * 10).rounded() / 10) : 0
  }

  var json: String {
    "{\"jobs\": \(jobs), \"wallSeconds\": \(JSONText.number(wallSeconds)), "
      + "\"runsPerSecond\": \(JSONText.number(runsPerSecond))}"
  }
}

/// One input of a merge: its shard, the build that ran it and how it ran.
public struct SweepShardRecord: Hashable, Sendable {
  public var shard: SweepShard
  public var build: String
  public var execution: SweepExecution?

  public init(shard: SweepShard, build: String, execution: SweepExecution?) {
    self.shard = shard
    self.build = build
    self.execution = execution
  }

  var json: String {
    "{\"shard\": \(JSONText.quoted(shard.description)), \"build\": \(JSONText.quoted(build))"
      + (execution.map { ", \"execution\": \($0.json)" } ?? "") + "}"
  }
}
