/// Merging the output directories of `bgsim sweep --shard K/N` into the files one whole sweep
/// writes, checking everything read: each `sweep.json` field by field, that the shards are of
/// one sweep (scenario content, grid, seeds, charts, bgsim version), that every shard 1..N is
/// there once, and every row of every `runs.csv` against the grid. Messages name the directory.
public enum SweepMerge {
  /// Merges `directories` (any order). `version` is the merging bgsim's: the summary is
  /// recomputed here, so shards of another version are refused.
  public static func merge(_ directories: [String], version: String) throws(SweepError) -> (
    SweepManifest, RunTable
  ) {
    guard !directories.isEmpty else { throw SweepError("no directories to merge") }
    guard directories.count <= SweepLimits.maxRuns else {
      throw SweepError("\(directories.count) directories: more than one sweep can have shards")
    }
    var inputs: [(directory: String, manifest: SweepManifest, shard: SweepShard)] = []
    for directory in directories {
      let manifest = try SweepOutput.readManifest(directory)
      inputs.append((directory, manifest, manifest.shard ?? SweepShard(index: 1, count: 1)))
    }
    inputs.sort { $0.shard < $1.shard }
    let first = inputs[0]
    for input in inputs.dropFirst() {
      try sameSweep(input.manifest, input.directory, first.manifest, first.directory)
    }
    guard first.manifest.bgsim.version == version else {
      throw SweepError(
        "\(first.directory) was written by bgsim \(first.manifest.bgsim.version) and this is bgsim \(version); "
          + "merge with the bgsim that ran the shards")
    }
    try checkShardSet(inputs.map { ($0.directory, $0.shard) })

    let manifest = first.manifest
    let plan = try SweepPlan(
      parameters: manifest.parameters, seeds: SeedList.parse(manifest.seeds, option: "seeds"))
    let header = RunTable.header(parameters: manifest.parameters)
    var rows = [[String]?](repeating: nil, count: plan.runCount)
    for input in inputs {
      for (run, row) in try readRows(input.directory, shard: input.shard, plan: plan, header: header) {
        rows[run] = row
      }
    }
    var merged = manifest
    merged.shard = nil
    merged.execution = nil
    merged.shards = inputs.flatMap { input in
      input.manifest.shards.isEmpty
        ? [
          SweepShardRecord(
            shard: input.shard, build: input.manifest.bgsim.build, execution: input.manifest.execution)
        ]
        : input.manifest.shards
    }
    return (merged, RunTable(header: header, rows: rows.map { $0! }))
  }

  /// Refuses `a` unless it is a shard of the same sweep as `b`, naming the field, both values
  /// and both directories.
  static func sameSweep(_ a: SweepManifest, _ da: String, _ b: SweepManifest, _ db: String) throws(SweepError)
  {
    func differ(_ what: String, _ va: String, _ vb: String, _ hint: String) -> SweepError {
      SweepError(
        "\(da) and \(db) are not shards of one sweep: \(what) is \(va) in \(da)/sweep.json but \(vb) in "
          + "\(db)/sweep.json; \(hint)")
    }
    func grid(_ m: SweepManifest) -> String {
      SweepError.quote(
        m.parameters.map { "\($0.key)=\($0.values.joined(separator: ","))" }.joined(separator: " "))
    }
    if a.scenarioSHA256 != b.scenarioSHA256 {
      throw differ(
        "the scenario's SHA-256", "\(a.scenarioSHA256) (\(SweepError.quote(a.scenario)))",
        "\(b.scenarioSHA256) (\(SweepError.quote(b.scenario)))",
        "the scenario file was changed between shards, or they ran different files; run every shard on the same file"
      )
    }
    let hint = "run every shard with the same --param, --seeds and --chart"
    if a.parameters != b.parameters { throw differ("the grid", grid(a), grid(b), hint) }
    if a.seeds != b.seeds {
      throw differ("seeds", SweepError.quote(a.seeds), SweepError.quote(b.seeds), hint)
    }
    if a.charts != b.charts {
      throw differ("charts", a.charts.joined(separator: ","), b.charts.joined(separator: ","), hint)
    }
    if a.name != b.name {
      throw differ("the scenario name", SweepError.quote(a.name), SweepError.quote(b.name), hint)
    }
    if a.bgsim.version != b.bgsim.version {
      throw differ(
        "bgsim's version", a.bgsim.version, b.bgsim.version,
        "results of different versions may differ: run every shard with one bgsim")
    }
  }

  /// Every shard 1..N exactly once, and all of the same N.
  static func checkShardSet(_ shards: [(directory: String, shard: SweepShard)]) throws(SweepError) {
    let count = shards[0].shard.count
    if let other = shards.first(where: { $0.shard.count != count }) {
      throw SweepError(
        "\(other.directory) is shard \(other.shard) but \(shards[0].directory) is \(shards[0].shard): "
          + "shards of one sweep share the same N")
    }
    var byIndex: [Int: String] = [:]
    for (directory, shard) in shards {
      if let previous = byIndex.updateValue(directory, forKey: shard.index) {
        throw SweepError("shard \(shard) is given twice: \(previous) and \(directory)")
      }
    }
    let missing = (1...count).filter { byIndex[$0] == nil }
    guard missing.isEmpty else {
      let list = missing.prefix(10).map { "\($0)/\(count)" }.joined(separator: ", ")
      throw SweepError(
        "\(missing.count) of \(count) shards are missing: \(list)\(missing.count > 10 ? ", ..." : ""); "
          + "give every shard's directory (did a shard fail?)")
    }
  }

  /// The rows of one shard's `runs.csv`, each checked against the grid: the header, then one
  /// row per run of the shard in run order, with the run's values and seed and well-formed metrics.
  static func readRows(_ directory: String, shard: SweepShard, plan: SweepPlan, header: [String])
    throws(SweepError) -> [(Int, [String])]
  {
    let file = SweepOutput.path(directory, "runs.csv")
    let expected = shard.runCount(of: plan.runCount)
    let longestValues = plan.parameters.reduce(0) { $0 + 2 * ($1.values.map(\.utf8.count).max() ?? 0) + 3 }
    let (perRow, overflow) = (8192 + longestValues).multipliedReportingOverflow(by: expected + 1)
    guard SweepFiles.exists(file) else { throw SweepError("\(file): missing; did the shard fail?") }
    let bytes = try SweepFiles.read(file, limit: overflow ? Int.max / 2 : perRow)
    guard bytes.last == 10 else {
      throw SweepError("\(file): does not end with a line break; was it cut short?")
    }
    let records = try CSV.parse(bytes, file: file)
    guard let first = records.first, first.cells == header else {
      let found = records.first?.cells ?? []
      let column =
        zip(found, header).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        ?? min(found.count, header.count)
      let detail =
        column < min(found.count, header.count)
        ? "column \(column + 1) is \(SweepError.quote(found[column])) where this sweep has \(SweepError.quote(header[column]))"
        : column < header.count
          ? "it ends before column \(column + 1), \(SweepError.quote(header[column]))"
          : "column \(column + 1) is \(SweepError.quote(found[column])), after the last, \(SweepError.quote(header[column - 1]))"
      throw SweepError(
        "\(file): line 1: the header has \(found.count) columns where this sweep has \(header.count): \(detail) "
          + "(is the file cut short, or from another sweep?)")
    }
    let body = records.dropFirst()
    guard body.count == expected else {
      throw SweepError(
        "\(file): \(body.count) runs; shard \(shard) of \(plan.runCount) runs holds \(expected) (was it cut short?)"
      )
    }
    let keys = plan.parameters.count
    var rows: [(Int, [String])] = []
    rows.reserveCapacity(expected)
    for (i, record) in body.enumerated() {
      let run = shard.index - 1 + i * shard.count
      let cells = record.cells
      func bad(_ message: String) -> SweepError { SweepError("\(file): line \(record.line): \(message)") }
      guard cells.count == header.count else {
        throw bad("\(cells.count) cells, expected \(header.count) (was the file cut short?)")
      }
      guard cells[0] == String(run) else {
        throw bad(
          "run \(SweepError.quote(cells[0])), expected run \(run): shard \(shard) holds runs \(shard.index - 1), "
            + "\(shard.index - 1 + shard.count), ... of 0..<\(plan.runCount) in order")
      }
      let (point, seed) = plan.run(run)
      let values = plan.values(ofPoint: point)
      if let k = (0..<keys).first(where: { cells[1 + $0] != values[$0] }) {
        throw bad(
          "run \(run) has \(header[1 + k]) \(SweepError.quote(cells[1 + k])), but the grid gives it "
            + "\(SweepError.quote(values[k]))")
      }
      guard cells[1 + keys] == String(seed) else {
        throw bad(
          "run \(run) has seed \(SweepError.quote(cells[1 + keys])), but the grid gives it seed \(seed)")
      }
      for c in (2 + keys)..<cells.count where !RunTable.isValid(cells[c], metric: header[c]) {
        throw bad("\(header[c]) is \(SweepError.quote(cells[c])), not a value bgsim sweep writes there")
      }
      rows.append((run, cells))
    }
    return rows
  }
}
