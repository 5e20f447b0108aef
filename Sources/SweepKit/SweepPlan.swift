import ScenarioKit
import SimKernel
import TransferEngine

/// Why a sweep could not be planned, written or merged: a bad `--param`, `--seeds` or `--shard`,
/// a grid over the limit, a shard directory that does not hold what `sweep.json` says.
public struct SweepError: Error, Hashable, Sendable, CustomStringConvertible {
  public var message: String
  /// True when an output could not be written (a full disk, a file where a folder must go):
  /// the tool exits 74 for these, 2 for everything the user can fix in the arguments.
  public var isOutputFailure: Bool
  public init(_ message: String, isOutputFailure: Bool = false) {
    self.message = message
    self.isOutputFailure = isOutputFailure
  }
  public var description: String { message }

  /// `text` for a message, cut to its first 60 characters so that a huge argument or file
  /// content never floods the terminal.
  public static func quote(_ text: some StringProtocol) -> String {
    let head = text.prefix(60)
    let escaped = head.unicodeScalars.map { c in
      c.value < 0x20 || c.value == 0x7f ? "\\u{\(String(c.value, radix: 16))}" : String(c)
    }.joined()
    return "'" + escaped + (head.count < text.count ? "...' (\(text.count) characters)" : "'")
  }
}

/// The sizes a sweep may have. A sweep keeps one row of about 40 cells per run in memory (and
/// a merge the rows of every shard), so one million runs is about a gigabyte at most.
public enum SweepLimits {
  /// Grid points times seeds, for a whole sweep (not per shard).
  public static let maxRuns = 1_000_000
  public static let maxRunsText = "1,000,000"
}

/// One swept policy knob and the values it takes, as written on the command line.
public struct SweepParameter: Hashable, Sendable, Codable {
  /// The knob's dotted name without the `policy.` prefix: `rateLimiter.growth`.
  public var key: String
  /// The values as written: `1.5`, `2m`, `null`.
  public var values: [String]

  public init(key: String, values: [String]) {
    self.key = key
    self.values = values
  }

  /// Parses `KEY=V1,V2,...`; `policy.` before the key is optional. Commas inside brackets or
  /// quotes do not split (`discretionary.requires=["wifi","charging"],[]`).
  public static func parse(_ text: String) throws(SweepError) -> SweepParameter {
    guard let eq = text.firstIndex(of: "=") else {
      throw SweepError(
        "--param expects KEY=V1,V2,... such as rateLimiter.growth=1.5,2,3, found \(SweepError.quote(text))")
    }
    var key = String(text[..<eq])
    if key.hasPrefix("policy.") { key.removeFirst("policy.".count) }
    let values = splitTopLevel(String(text[text.index(after: eq)...]))
    guard !key.isEmpty, !values.isEmpty, !values.contains(where: \.isEmpty) else {
      throw SweepError(
        "--param \(SweepError.quote(text)) needs a knob name and non-empty values separated by commas")
    }
    let parameter = SweepParameter(key: key, values: values)
    if let repeated = parameter.repeatedValue {
      throw SweepError("--param \(SweepError.quote(key)) lists the value \(SweepError.quote(repeated)) twice")
    }
    return parameter
  }

  /// The first value listed twice, if any.
  public var repeatedValue: String? {
    var seen = Set<String>()
    return values.first { !seen.insert($0).inserted }
  }

  private static func splitTopLevel(_ text: String) -> [String] {
    var parts: [String] = []
    var current = ""
    var depth = 0
    var inString = false
    for c in text {
      if inString {
        if c == "\"" { inString = false }
      } else if c == "\"" {
        inString = true
      } else if c == "[" || c == "{" {
        depth += 1
      } else if c == "]" || c == "}" {
        depth -= 1
      } else if c == "," && depth == 0 {
        parts.append(current)
        current = ""
        continue
      }
      current.append(c)
    }
    parts.append(current)
    return parts
  }
}

/// `--shard K/N`: the runs whose index is K-1 modulo N.
public struct SweepShard: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// 1-based, as Slurm numbers array tasks (Kubernetes indexes from 0: add 1).
  public var index: Int
  public var count: Int

  public init(index: Int, count: Int) {
    self.index = index
    self.count = count
  }

  /// `K/N` with 1 <= K <= N <= `SweepLimits.maxRuns` (more shards than runs would be empty).
  public static func parse(_ text: String, option: String = "--shard") throws(SweepError) -> SweepShard {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]),
      (1...SweepLimits.maxRuns).contains(n),
      (1...n).contains(k)
    else {
      throw SweepError(
        "\(option) expects K/N with 1 <= K <= N <= \(SweepLimits.maxRunsText), such as 2/8, found \(SweepError.quote(text))"
      )
    }
    return SweepShard(index: k, count: n)
  }

  /// Round-robin, so that every shard gets a fair mix of grid points and seeds.
  public func contains(run: Int) -> Bool { run % count == index - 1 }

  public var description: String { "\(index)/\(count)" }

  public static func < (a: SweepShard, b: SweepShard) -> Bool { (a.count, a.index) < (b.count, b.index) }

  /// The number of runs of a grid of `runs` this shard holds.
  public func runCount(of runs: Int) -> Int { runs / count + (index - 1 < runs % count ? 1 : 0) }
}

/// `--seeds 1-100` or `1-10,42,100-120`.
public enum SeedList {
  /// Refuses a seed listed twice at any size (`1-100000,1-100000`) and lists over
  /// `SweepLimits.maxRuns` seeds. `option` names the source in messages.
  public static func parse(_ text: String, option: String = "--seeds") throws(SweepError) -> [UInt64] {
    var seeds: [UInt64] = []
    var seen = Set<UInt64>()
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      let bounds = part.split(separator: "-", omittingEmptySubsequences: false)
      guard (1...2).contains(bounds.count), let low = UInt64(bounds[0]), let high = UInt64(bounds.last!),
        low <= high
      else {
        throw SweepError(
          "\(option) expects ranges like 1-100 or 1-10,42 (integers of 0 or more), found \(SweepError.quote(text))"
        )
      }
      guard high - low < UInt64(SweepLimits.maxRuns), seeds.count + Int(high - low) < SweepLimits.maxRuns
      else {
        throw SweepError(
          "\(option) \(SweepError.quote(text)) asks for more than \(SweepLimits.maxRunsText) seeds, the most bgsim takes in one command"
        )
      }
      for seed in low...high {
        guard seen.insert(seed).inserted else { throw SweepError("\(option) lists seed \(seed) twice") }
        seeds.append(seed)
      }
    }
    return seeds
  }

  /// The shortest `A-B,C` text for a list (for the manifest and the summary).
  public static func text(_ seeds: [UInt64]) -> String {
    var parts: [String] = []
    var i = 0
    while i < seeds.count {
      var j = i
      while j + 1 < seeds.count, seeds[j + 1] == seeds[j] &+ 1 { j += 1 }
      parts.append(i == j ? "\(seeds[i])" : "\(seeds[i])-\(seeds[j])")
      i = j + 1
    }
    return parts.joined(separator: ",")
  }
}

/// The grid of a sweep: every combination of parameter values (the first parameter varying
/// slowest), each run once per seed (seeds varying fastest).
public struct SweepPlan: Sendable {
  public let parameters: [SweepParameter]
  public let seeds: [UInt64]

  /// Grid points: the product of the parameters' value counts.
  public let pointCount: Int
  /// Grid points times seeds.
  public let runCount: Int

  /// Checks the grid's size before anything is built: at most `SweepLimits.maxRuns` runs, with
  /// no overflow on the way (ten knobs of a hundred values are refused, not multiplied).
  public init(parameters: [SweepParameter], seeds: [UInt64]) throws(SweepError) {
    guard !seeds.isEmpty else { throw SweepError("the sweep has no seeds") }
    var points = 1
    var tooLarge = false
    for parameter in parameters {
      guard !parameter.values.isEmpty else {
        throw SweepError("--param \(SweepError.quote(parameter.key)) has no values")
      }
      let (product, overflow) = points.multipliedReportingOverflow(by: parameter.values.count)
      if overflow || product > SweepLimits.maxRuns {
        tooLarge = true
        break
      }
      points = product
    }
    let (runs, overflow) = points.multipliedReportingOverflow(by: seeds.count)
    if tooLarge || overflow || runs > SweepLimits.maxRuns {
      let counts = parameters.prefix(12).map { "\($0.values.count)" }.joined(separator: " x ")
      throw SweepError(
        "the grid (\(counts)\(parameters.count > 12 ? " x ..." : "") values) times \(seeds.count) seeds is more than "
          + "the \(SweepLimits.maxRunsText) runs one sweep may have; sweep fewer values or seeds, or split the study "
          + "into several sweeps")
    }
    self.parameters = parameters
    self.seeds = seeds
    self.pointCount = points
    self.runCount = runs
  }

  /// The value index of each parameter at grid point `point`.
  public func valueIndices(ofPoint point: Int) -> [Int] {
    var rest = point
    var indices = Array(repeating: 0, count: parameters.count)
    for p in parameters.indices.reversed() {
      indices[p] = rest % parameters[p].values.count
      rest /= parameters[p].values.count
    }
    return indices
  }

  public func values(ofPoint point: Int) -> [String] {
    zip(parameters, valueIndices(ofPoint: point)).map { $0.values[$1] }
  }

  /// The grid point and seed of run `run`.
  public func run(_ run: Int) -> (point: Int, seed: UInt64) {
    (run / seeds.count, seeds[run % seeds.count])
  }

  /// The policy of each grid point, checked: a bad knob or value is reported before anything runs.
  public func policies(base: Policy) throws(SweepError) -> [Policy] {
    for parameter in parameters {
      var policy = base
      for value in parameter.values {
        do {
          try PolicyJSON.set(parameter.key, to: value, in: &policy)
        } catch {
          throw SweepError("--param \(SweepError.quote(parameter.key + "=" + value)): \(error.message)")
        }
      }
    }
    var keys = Set<String>()
    if let repeated = parameters.first(where: { !keys.insert($0.key).inserted }) {
      throw SweepError(
        "--param \(SweepError.quote(repeated.key)) is given twice; list all its values in one --param")
    }
    return (0..<pointCount).map { point in
      var policy = base
      for (parameter, value) in zip(parameters, values(ofPoint: point)) {
        try! PolicyJSON.set(parameter.key, to: value, in: &policy)
      }
      return policy
    }
  }
}
