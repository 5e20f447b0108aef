import ScenarioKit
import SimKernel
import TransferEngine

/// Why a sweep could not be planned: a bad `--param`, `--seeds` or `--shard`.
public struct SweepError: Error, Hashable, Sendable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
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
      throw SweepError("--param expects KEY=V1,V2,... such as rateLimiter.growth=1.5,2,3, found '\(text)'")
    }
    var key = String(text[..<eq])
    if key.hasPrefix("policy.") { key.removeFirst("policy.".count) }
    let values = splitTopLevel(String(text[text.index(after: eq)...]))
    guard !key.isEmpty, !values.isEmpty, !values.contains(where: \.isEmpty) else {
      throw SweepError("--param '\(text)' needs a knob name and non-empty values separated by commas")
    }
    if let repeated = values.enumerated().first(where: { values[..<$0.offset].contains($0.element) }) {
      throw SweepError("--param \(key) lists the value '\(repeated.element)' twice")
    }
    return SweepParameter(key: key, values: values)
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
public struct SweepShard: Hashable, Sendable, Codable, CustomStringConvertible {
  /// 1-based, as job arrays number tasks from 1 or from 0 (`fromZero` in `parse`).
  public var index: Int
  public var count: Int

  public init(index: Int, count: Int) {
    self.index = index
    self.count = count
  }

  /// `K/N` with 1 <= K <= N.
  public static func parse(_ text: String) throws(SweepError) -> SweepShard {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(k) else {
      throw SweepError("--shard expects K/N with 1 <= K <= N, such as 2/8, found '\(text)'")
    }
    return SweepShard(index: k, count: n)
  }

  /// Round-robin, so that every shard gets a fair mix of grid points and seeds.
  public func contains(run: Int) -> Bool { run % count == index - 1 }

  public var description: String { "\(index)/\(count)" }
}

/// `--seeds 1-100` or `1-10,42,100-120`.
public enum SeedList {
  public static func parse(_ text: String) throws(SweepError) -> [UInt64] {
    var seeds: [UInt64] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      let bounds = part.split(separator: "-", omittingEmptySubsequences: false)
      guard (1...2).contains(bounds.count), let low = UInt64(bounds[0]), let high = UInt64(bounds.last!),
        low <= high
      else {
        throw SweepError(
          "--seeds expects ranges like 1-100 or 1-10,42 (integers of 0 or more), found '\(text)'")
      }
      guard high - low < 10_000_000, seeds.count + Int(high - low) < 10_000_000 else {
        throw SweepError("--seeds '\(text)' asks for more than 10,000,000 seeds")
      }
      seeds += Array(low...high)
    }
    if let repeated = seeds.enumerated().first(where: { seeds[..<$0.offset].contains($0.element) }),
      seeds.count < 100_000
    {
      throw SweepError("--seeds lists seed \(repeated.element) twice")
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
  public var parameters: [SweepParameter]
  public var seeds: [UInt64]

  public init(parameters: [SweepParameter], seeds: [UInt64]) {
    self.parameters = parameters
    self.seeds = seeds
  }

  public var pointCount: Int { parameters.reduce(1) { $0 * $1.values.count } }
  public var runCount: Int { pointCount * seeds.count }

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
          throw SweepError("--param \(parameter.key)=\(value): \(error.message)")
        }
      }
    }
    let keys = parameters.map(\.key)
    if let repeated = keys.enumerated().first(where: { keys[..<$0.offset].contains($0.element) }) {
      throw SweepError("--param \(repeated.element) is given twice; list all its values in one --param")
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
