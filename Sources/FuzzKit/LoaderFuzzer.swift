import ScenarioKit
import SimKernel

/// Hostile input for `ScenarioLoader`: random bytes, JSON-like token soup and mutations of valid
/// generated scenarios. Every input must load or be refused with problems (exit code 2), within
/// `timeLimit` seconds; a crash would end the process, so surviving the run is the crash check.
public struct LoaderFuzzer {
  /// An input that broke a rule: too slow, or refused without a message.
  public struct Finding: Sendable {
    public var iteration: Int
    public var problem: String
    public var input: [UInt8]
  }

  /// What a run saw.
  public struct Report: Sendable {
    public var iterations = 0
    public var loaded = 0
    public var rejected = 0
    public var slowestSeconds = 0.0
    public var totalSeconds = 0.0
    public var findings: [Finding] = []
  }

  var random: SeededGenerator
  let corpus: [[UInt8]]
  public var timeLimit: Double

  /// `seed` fixes the inputs; `corpusSize` valid scenarios (from generator seeds 1...) are mutated.
  public init(seed: UInt64, corpusSize: Int = 16, timeLimit: Double = 1.0) {
    self.random = SeededGenerator(seed: seed)
    self.corpus = (1...max(1, corpusSize)).map {
      Array(ScenarioJSONWriter.write(ScenarioGenerator.scenario(seed: UInt64($0))).utf8)
    }
    self.timeLimit = timeLimit
  }

  /// Feeds `iterations` inputs to the loader; `progress` is called every 10,000 with the report so far.
  public mutating func run(iterations: Int, progress: ((Report) -> Void)? = nil) -> Report {
    var report = Report()
    let clock = ContinuousClock()
    let begin = clock.now
    for i in 0..<iterations {
      let input = next()
      let start = clock.now
      var refusedSilently = false
      do {
        _ = try ScenarioLoader.load(data: input, file: "fuzz-input.json")
        report.loaded += 1
      } catch {
        report.rejected += 1
        refusedSilently = error.lines.isEmpty || ScenarioErrors.exitCode != 2
      }
      let seconds = Self.seconds(clock.now - start)
      report.slowestSeconds = max(report.slowestSeconds, seconds)
      if seconds > timeLimit {
        report.findings.append(
          Finding(iteration: i, problem: "took \(seconds) s, over the \(timeLimit) s limit", input: input))
      }
      if refusedSilently {
        report.findings.append(Finding(iteration: i, problem: "refused without a message", input: input))
      }
      report.iterations += 1
      if (i + 1) % 10_000 == 0 { progress?(report) }
    }
    report.totalSeconds = Self.seconds(clock.now - begin)
    return report
  }

  static func seconds(_ d: Duration) -> Double {
    let (s, atto) = d.components
    return Double(s) + Double(atto) / 1e18
  }

  // MARK: Inputs

  mutating func int(_ range: ClosedRange<Int>) -> Int { random.uniform(range) }

  /// The next input: mostly mutated scenarios, some token soup, some raw bytes.
  mutating func next() -> [UInt8] {
    let roll = random.nextUnit()
    if roll < 0.1 { return (0..<int(0...256)).map { _ in UInt8(truncatingIfNeeded: random.next()) } }
    if roll < 0.25 { return tokenSoup() }
    var bytes = random.choice(corpus)
    for _ in 0..<int(1...4) { mutate(&bytes) }
    return bytes
  }

  static let tokens: [String] = [
    "{", "}", "[", "]", ",", ":", "\"", "null", "true", "false", "0", "-1", "1e999", "-0.0", "1.5",
    "18446744073709551616", "\"name\"", "\"timeline\"", "\"at\"", "\"do\"", "\"launch\"", "\"download\"",
    "\"duration\"", "\"7d\"", "\"1h30m\"", "\"-5s\"", "\"50MB\"", "\"1.5GiB\"", "\"20Mbps\"", "\"+30s\"",
    "\"https://a.example.com/d0\"", "\"x-note\"", "\"\\u0000\"", "\"\\ud800\"", "\"\u{00e9}\"", " ", "\n",
    "\"ratePerHour\"", "\"-10%\"", "\"lowPowerModeBelow\"", "\"count\"", "\"firstNumber\"",
    "\"resumeFromData\"",
  ]

  /// JSON-like text from the format's own words, often broken.
  mutating func tokenSoup() -> [UInt8] {
    var text = ""
    for _ in 0..<int(1...200) { text += random.choice(Self.tokens) }
    return Array(text.utf8)
  }

  static let values: [String] = [
    "null", "true", "0", "-1", "1e308", "1e999", "-9223372036854775809", "99999999999999999999", "0.1",
    "\"\"", "\"0s\"", "\"999999999999d\"", "\"1.0000000001ns\"", "\"5XB\"", "\"1e3MB\"", "\"NaN\"", "[]",
    "{}",
    "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]", "{\"x-extra\": 1}", "\"wifi\"",
    "\"http://\"", "\"ftp://example.com/a\"", "\"https://a.example.com/d0\"", "\"t1\"", "\"t*\"",
    "\"r0-{n}\"", "\"-1000%\"", "\"+0.0001%\"", "\"1000.0001%\"", "\"%\"", "\"-%\"", "\"99999%\"",
  ]

  mutating func mutate(_ bytes: inout [UInt8]) {
    guard !bytes.isEmpty else {
      bytes = Array(random.choice(Self.values).utf8)
      return
    }
    let at = int(0...bytes.count - 1)
    switch int(0...7) {
    case 0: bytes[at] = UInt8(truncatingIfNeeded: random.next())
    case 1: bytes[at] ^= UInt8(1) << UInt8(int(0...7))
    case 2: bytes.removeSubrange(at..<min(bytes.count, at + int(1...64)))
    case 3: bytes.insert(contentsOf: random.choice(Self.tokens).utf8, at: at)
    case 4:
      let end = min(bytes.count, at + int(1...256))
      bytes.insert(contentsOf: bytes[at..<end], at: int(0...bytes.count))
    case 5: bytes.removeSubrange(at...)
    case 6:
      // Replace the value after a ':' with an awkward one.
      guard let colon = bytes[at...].firstIndex(of: UInt8(ascii: ":")) else { return }
      var end = colon + 1
      while end < bytes.count
        && ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]")].contains(bytes[end])
      {
        end += 1
      }
      bytes.replaceSubrange((colon + 1)..<end, with: Array((" " + random.choice(Self.values)).utf8))
    default:
      // Deep nesting, within and beyond the loader's depth limit.
      let depth = int(1...2_000)
      bytes.insert(contentsOf: [UInt8](repeating: UInt8(ascii: "["), count: depth), at: at)
    }
  }
}
