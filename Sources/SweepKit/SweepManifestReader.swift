import ScenarioKit

extension SweepManifest {
  /// Largest `sweep.json` read: the grid's values are what can make it long.
  public static let maxFileSize = 16 * 1024 * 1024

  /// Reads `sweep.json` strictly: every field must be there with its type and a value bgsim
  /// could have written (no unknown fields, `runs` equal to grid points times seeds, charts
  /// that are metrics, a shard `K/N`). Messages name `file`, the field and its line.
  public static func parse(_ bytes: [UInt8], file: String) throws(SweepError) -> SweepManifest {
    let root: JSONValue
    do {
      root = try JSONParser.parse(bytes)
    } catch {
      throw SweepError("\(file): not valid JSON (\(error.description)); was the file cut short?")
    }
    let reader = ManifestReader(file: file)
    let fields = try reader.object(
      root, "the file",
      allowed: [
        "format", "scenario", "scenarioSHA256", "name", "parameters", "seeds", "runs", "charts", "shard",
        "bgsim", "execution", "shards",
      ])
    guard let formatValue = fields["format"] else { throw reader.missing("format", in: root) }
    let format = try reader.integer(formatValue, "format", in: 1...Int64.max)
    guard format == Int64(SweepManifest.format) else {
      throw reader.error(
        "format", formatValue,
        "is \(format); this bgsim reads format \(SweepManifest.format)"
          + (format < Int64(SweepManifest.format)
            ? " (the directory was written by an older bgsim: run it again)" : ""))
    }
    func required(_ key: String) throws(SweepError) -> JSONValue {
      guard let value = fields[key] else { throw reader.missing(key, in: root) }
      return value
    }
    let scenario = try reader.string(try required("scenario"), "scenario", maxLength: 4096)
    let hashValue = try required("scenarioSHA256")
    let hash = try reader.string(hashValue, "scenarioSHA256", maxLength: 64)
    guard hash.count == 64, hash.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
      throw reader.error("scenarioSHA256", hashValue, "must be 64 lowercase hexadecimal digits")
    }
    let name = try reader.string(try required("name"), "name", maxLength: 4096)
    let parameters = try reader.parameters(try required("parameters"))
    let seedsValue = try required("seeds")
    let seedsText = try reader.string(seedsValue, "seeds", maxLength: 1 << 20)
    let plan: SweepPlan
    do {
      plan = try SweepPlan(parameters: parameters, seeds: SeedList.parse(seedsText, option: "seeds"))
    } catch {
      throw reader.error("seeds", seedsValue, error.message)
    }
    let runsValue = try required("runs")
    let runs = try reader.integer(runsValue, "runs", in: 0...Int64.max)
    guard runs == Int64(plan.runCount) else {
      throw reader.error(
        "runs", runsValue,
        "is \(runs); the grid's \(plan.pointCount) points times \(plan.seeds.count) seeds make \(plan.runCount)"
      )
    }
    let charts = try reader.charts(try required("charts"))
    var shard: SweepShard?
    if let value = fields["shard"] {
      do {
        shard = try SweepShard.parse(try reader.string(value, "shard", maxLength: 64), option: "shard")
      } catch {
        throw reader.error("shard", value, error.message)
      }
    }
    let bgsimValue = try required("bgsim")
    let bgsimFields = try reader.object(bgsimValue, "bgsim", allowed: ["version", "build"])
    guard let versionValue = bgsimFields["version"] else {
      throw reader.missing("bgsim.version", in: bgsimValue)
    }
    guard let buildValue = bgsimFields["build"] else { throw reader.missing("bgsim.build", in: bgsimValue) }
    let bgsim = SweepBuild(
      version: try reader.string(versionValue, "bgsim.version", maxLength: 100),
      build: try reader.string(buildValue, "bgsim.build", maxLength: 200))
    let execution = try fields["execution"].map { (v: JSONValue) throws(SweepError) in
      try reader.execution(v, "execution")
    }
    var shards: [SweepShardRecord] = []
    if let value = fields["shards"] {
      guard let items = value.array, !items.isEmpty, items.count <= SweepLimits.maxRuns else {
        throw reader.error("shards", value, "must be a non-empty array of the merged shards")
      }
      for (i, item) in items.enumerated() {
        shards.append(try reader.shardRecord(item, "shards[\(i)]"))
      }
    }
    if shard != nil, !shards.isEmpty {
      throw reader.error("shards", fields["shards"]!, "a shard's output cannot also list merged shards")
    }
    return SweepManifest(
      scenario: scenario, scenarioSHA256: hash, name: name, parameters: parameters, seeds: seedsText,
      runs: plan.runCount, charts: charts, shard: shard, bgsim: bgsim, execution: execution, shards: shards)
  }
}

/// Typed access to the fields of `sweep.json`, with messages naming the file, field and line.
private struct ManifestReader {
  var file: String

  func error(_ field: String, _ value: JSONValue, _ message: String) -> SweepError {
    SweepError("\(file): \(field) (\(value.position)) \(message)")
  }

  func missing(_ field: String, in value: JSONValue) -> SweepError {
    SweepError(
      "\(file): the field \(field) is missing (the object at \(value.position)); was the file written by bgsim sweep?"
    )
  }

  func object(_ value: JSONValue, _ field: String, allowed: [String]) throws(SweepError) -> [String:
    JSONValue]
  {
    guard let members = value.members else {
      throw error(field, value, "must be an object, found \(value.summary)")
    }
    var fields: [String: JSONValue] = [:]
    for member in members {
      guard allowed.contains(member.key) else {
        throw SweepError(
          "\(file): unknown field \(SweepError.quote(member.key)) (\(member.keyPosition)); "
            + "fields are \(allowed.joined(separator: ", "))")
      }
      fields[member.key] = member.value
    }
    return fields
  }

  func string(_ value: JSONValue, _ field: String, maxLength: Int) throws(SweepError) -> String {
    guard let text = value.string else {
      throw error(field, value, "must be a string, found \(value.summary)")
    }
    guard !text.isEmpty, text.utf8.count <= maxLength else {
      throw error(field, value, "must be a string of 1 to \(maxLength) bytes")
    }
    return text
  }

  func integer(_ value: JSONValue, _ field: String, in range: ClosedRange<Int64>) throws(SweepError) -> Int64
  {
    guard let number = value.number, number.isInteger, let n = number.int64, range.contains(n) else {
      let bounds =
        range.upperBound == .max
        ? "\(range.lowerBound) or more" : "from \(range.lowerBound) to \(range.upperBound)"
      throw error(field, value, "must be an integer \(bounds), found \(value.summary.prefix(80))")
    }
    return n
  }

  func seconds(_ value: JSONValue, _ field: String) throws(SweepError) -> Double {
    guard let number = value.number, number.double.isFinite, (0...1e9).contains(number.double) else {
      throw error(field, value, "must be a number from 0 to 1e9, found \(value.summary.prefix(80))")
    }
    return number.double
  }

  func parameters(_ value: JSONValue) throws(SweepError) -> [SweepParameter] {
    guard let items = value.array, !items.isEmpty else {
      throw error("parameters", value, "must be a non-empty array of {\"key\", \"values\"} objects")
    }
    var parameters: [SweepParameter] = []
    var keys = Set<String>()
    for (i, item) in items.enumerated() {
      let field = "parameters[\(i)]"
      let fields = try object(item, field, allowed: ["key", "values"])
      guard let keyValue = fields["key"] else { throw missing("\(field).key", in: item) }
      guard let valuesValue = fields["values"], let values = valuesValue.array, !values.isEmpty else {
        throw error(field, item, "needs \"values\", a non-empty array of strings")
      }
      let key = try string(keyValue, "\(field).key", maxLength: 200)
      guard keys.insert(key).inserted else {
        throw error("\(field).key", keyValue, "repeats the knob \(SweepError.quote(key))")
      }
      var texts: [String] = []
      for (j, v) in values.enumerated() {
        texts.append(try string(v, "\(field).values[\(j)]", maxLength: 4096))
      }
      let parameter = SweepParameter(key: key, values: texts)
      if let repeated = parameter.repeatedValue {
        throw error("\(field).values", valuesValue, "lists \(SweepError.quote(repeated)) twice")
      }
      parameters.append(parameter)
    }
    return parameters
  }

  func charts(_ value: JSONValue) throws(SweepError) -> [String] {
    guard let items = value.array, !items.isEmpty else {
      throw error("charts", value, "must be a non-empty array of runs.csv metric names")
    }
    var charts: [String] = []
    for (i, item) in items.enumerated() {
      let chart = try string(item, "charts[\(i)]", maxLength: 100)
      guard RunTable.metricColumns.contains(chart) else {
        throw error("charts[\(i)]", item, "is \(SweepError.quote(chart)), not a metric of runs.csv")
      }
      guard !charts.contains(chart) else {
        throw error("charts[\(i)]", item, "repeats \(SweepError.quote(chart))")
      }
      charts.append(chart)
    }
    return charts
  }

  func execution(_ value: JSONValue, _ field: String) throws(SweepError) -> SweepExecution {
    let fields = try object(value, field, allowed: ["jobs", "wallSeconds", "runsPerSecond"])
    guard let jobs = fields["jobs"] else { throw missing("\(field).jobs", in: value) }
    guard let wall = fields["wallSeconds"] else { throw missing("\(field).wallSeconds", in: value) }
    guard let rate = fields["runsPerSecond"] else { throw missing("\(field).runsPerSecond", in: value) }
    return SweepExecution(
      jobs: Int(try integer(jobs, "\(field).jobs", in: 1...1024)),
      wallSeconds: try seconds(wall, "\(field).wallSeconds"),
      runsPerSecond: try seconds(rate, "\(field).runsPerSecond"))
  }

  func shardRecord(_ value: JSONValue, _ field: String) throws(SweepError) -> SweepShardRecord {
    let fields = try object(value, field, allowed: ["shard", "build", "execution"])
    guard let shardValue = fields["shard"] else { throw missing("\(field).shard", in: value) }
    guard let buildValue = fields["build"] else { throw missing("\(field).build", in: value) }
    let shard: SweepShard
    do {
      shard = try SweepShard.parse(try string(shardValue, "\(field).shard", maxLength: 64), option: "shard")
    } catch {
      throw self.error("\(field).shard", shardValue, error.message)
    }
    return SweepShardRecord(
      shard: shard, build: try string(buildValue, "\(field).build", maxLength: 200),
      execution: try fields["execution"].map { (v: JSONValue) throws(SweepError) in
        try execution(v, "\(field).execution")
      })
  }
}
