import SimKernel
import TransferEngine

/// The `random` section: conditions drawn from distributions with the run's seed, so that
/// running a scenario over many seeds explores many days of device life.
///
/// Runs draw the conditions lazily (`streams(_:seed:)`): the engine asks each stream for its
/// next change only when the previous one happens, so memory stays flat however dense the
/// section. `expand(_:seed:)` gives the same draws as ordinary steps and timeline entries.
/// The same seed always gives the same conditions.
public struct RandomConditions: Sendable, Hashable {
  /// The network alternating between two states (Wi-Fi available or not).
  public var network: Alternation<NetworkState>?
  /// The power alternating between two states (on the charger or not).
  public var power: Alternation<PowerState>?
  /// The system terminating the app at random instants.
  public var terminations: Recurrence?

  /// A `random` section drawing any of the three.
  public init(
    network: Alternation<NetworkState>? = nil, power: Alternation<PowerState>? = nil,
    terminations: Recurrence? = nil
  ) {
    self.network = network
    self.power = power
    self.terminations = terminations
  }
}

/// How long something lasts, or how long until it happens again.
public enum DurationDistribution: Sendable, Hashable {
  /// Always this long: `"30m"`.
  case fixed(SimDuration)
  /// Exponential with this mean: `{"exponential": "2h"}` (memoryless; as gaps between events
  /// it makes a Poisson process).
  case exponential(mean: SimDuration)
  /// Uniform between two bounds, inclusive: `{"uniform": ["10m", "1h"]}`.
  case uniform(SimDuration, SimDuration)

  /// The mean of the distribution.
  public var mean: SimDuration {
    switch self {
    case .fixed(let d): return d
    case .exponential(let mean): return mean
    case .uniform(let low, let high):
      return SimDuration(nanoseconds: low.nanoseconds / 2 + high.nanoseconds / 2)
    }
  }

  /// One draw, rounded to the millisecond (traces stay readable) and at least 1 ms so that
  /// time always moves forward.
  public func draw(_ random: inout SeededGenerator) -> SimDuration {
    let d: SimDuration
    switch self {
    case .fixed(let value): d = value
    case .exponential(let mean): d = random.exponential(mean: mean)
    case .uniform(let low, let high):
      let span = Double(high.nanoseconds - low.nanoseconds)
      d = SimDuration(nanoseconds: low.nanoseconds + Int64((span * random.nextUnit()).rounded()))
    }
    let ms = (d.nanoseconds + 500_000) / 1_000_000
    return .milliseconds(max(1, ms))
  }
}

/// A condition that alternates between an `on` and an `off` state, each lasting a random time.
public struct Alternation<State: Sendable & Hashable>: Sendable, Hashable {
  /// The state while on (Wi-Fi up, on the charger).
  public var on: State
  /// The state while off.
  public var off: State
  /// How long each on period lasts.
  public var onFor: DurationDistribution
  /// How long each off period lasts.
  public var offFor: DurationDistribution
  /// The state at `from`; nil draws it, `on` with probability mean(onFor) / (mean(onFor) + mean(offFor)).
  public var startsOn: Bool?
  /// From when the alternation replaces the device's own steps (entries before it are kept).
  public var from: SimTime
  /// When the alternation stops drawing (the last state then holds); nil: the scenario's duration.
  public var until: SimTime?

  /// An alternation between `on` and `off`.
  public init(
    on: State, off: State, onFor: DurationDistribution, offFor: DurationDistribution, startsOn: Bool? = nil,
    from: SimTime = .zero, until: SimTime? = nil
  ) {
    self.on = on
    self.off = off
    self.onFor = onFor
    self.offFor = offFor
    self.startsOn = startsOn
    self.from = from
    self.until = until
  }

  /// The steps from `from` until `until` (or `end`), all at once (tests; runs draw them lazily).
  func steps(end: SimTime, random: inout SeededGenerator) -> [Step<State>] {
    Array(Draws(self, end: end, random: random))
  }

  /// The steps one at a time, each drawn when asked for: `random` periods of 1 ms over 30 days
  /// never sit in memory together.
  struct Draws: IteratorProtocol, Sequence {
    let alternation: Alternation
    let stop: SimTime
    var random: SeededGenerator
    var isOn: Bool
    var t: SimTime

    init(_ alternation: Alternation, end: SimTime, random: SeededGenerator) {
      self.alternation = alternation
      self.stop = alternation.until ?? end
      var random = random
      if let startsOn = alternation.startsOn {
        isOn = startsOn
      } else {
        let onMean = Double(alternation.onFor.mean.nanoseconds)
        let total = onMean + Double(alternation.offFor.mean.nanoseconds)
        isOn = total <= 0 || random.nextUnit() * total < onMean
      }
      self.random = random
      t = alternation.from
    }

    mutating func next() -> Step<State>? {
      guard t < stop else { return nil }
      let step = Step(at: t, isOn ? alternation.on : alternation.off)
      t = t + (isOn ? alternation.onFor : alternation.offFor).draw(&random)
      isOn.toggle()
      return step
    }
  }
}

/// Events at random instants: the gap before each is drawn from `every` (exponential gaps make a
/// Poisson process).
public struct Recurrence: Sendable, Hashable {
  /// The gap before each event.
  public var every: DurationDistribution
  /// When the first gap starts.
  public var from: SimTime
  /// When events stop; nil: the scenario's duration.
  public var until: SimTime?

  /// Events `every` apart from `from` on.
  public init(every: DurationDistribution, from: SimTime = .zero, until: SimTime? = nil) {
    self.every = every
    self.from = from
    self.until = until
  }

  func instants(end: SimTime, random: inout SeededGenerator) -> [SimTime] {
    Array(Draws(self, end: end, random: random))
  }

  /// The instants one at a time, each drawn when asked for.
  struct Draws: IteratorProtocol, Sequence {
    let every: DurationDistribution
    let stop: SimTime
    var random: SeededGenerator
    var t: SimTime

    init(_ recurrence: Recurrence, end: SimTime, random: SeededGenerator) {
      every = recurrence.every
      stop = recurrence.until ?? end
      var random = random
      t = recurrence.from + recurrence.every.draw(&random)
      self.random = random
    }

    mutating func next() -> SimTime? {
      guard t < stop else { return nil }
      let out = t
      t = t + every.draw(&random)
      return out
    }
  }
}

extension RandomConditions {
  /// The scenario without its `random` section and without the device steps the section
  /// replaces, and the section as streams drawn during the run (`ConditionStream`), in the order
  /// the expanded steps would run: network, then power, then terminations.
  public static func streams(_ scenario: Scenario, seed: UInt64) -> (Scenario, [ConditionStream]) {
    guard let random = scenario.random else { return (scenario, []) }
    var out = scenario
    out.random = nil
    let end = SimTime(scenario.duration)
    var streams: [ConditionStream] = []
    if let network = random.network {
      out.device.network = scenario.device.network.filter { $0.at < network.from }
      var draws = Alternation.Draws(network, end: end, random: generator(seed: seed, stream: 1))
      streams.append(ConditionStream { draws.next().map { ($0.at, .network($0.value)) } })
    }
    if let power = random.power {
      out.device.power = scenario.device.power.filter { $0.at < power.from }
      var draws = Alternation.Draws(power, end: end, random: generator(seed: seed, stream: 2))
      streams.append(ConditionStream { draws.next().map { ($0.at, .power($0.value)) } })
    }
    if let terminations = random.terminations {
      var draws = Recurrence.Draws(terminations, end: end, random: generator(seed: seed, stream: 3))
      streams.append(ConditionStream { draws.next().map { ($0, .terminate) } })
    }
    return (out, streams)
  }

  /// Independent streams per condition, so adding terminations does not change the network drawn.
  private static func generator(seed: UInt64, stream: UInt64) -> SeededGenerator {
    SeededGenerator(seed: seed ^ (stream &* 0xD1B5_4A32_D192_ED03))
  }

  /// The scenario with the draws for `seed` written into it as ordinary steps and timeline entries,
  /// and its `random` section removed.
  public static func expand(_ scenario: Scenario, seed: UInt64) -> Scenario {
    guard let random = scenario.random else { return scenario }
    var out = scenario
    out.random = nil
    let end = SimTime(scenario.duration)
    if let network = random.network {
      var g = generator(seed: seed, stream: 1)
      out.device.network =
        scenario.device.network.filter { $0.at < network.from }
        + network.steps(end: end, random: &g)
    }
    if let power = random.power {
      var g = generator(seed: seed, stream: 2)
      out.device.power =
        scenario.device.power.filter { $0.at < power.from } + power.steps(end: end, random: &g)
    }
    if let terminations = random.terminations {
      var g = generator(seed: seed, stream: 3)
      let entries = terminations.instants(end: end, random: &g).enumerated().map { i, t in
        TimelineEntry(at: t, action: .terminate, path: "random.terminations[\(i)]")
      }
      // Stable merge: a drawn termination at the same instant as a written entry comes after it.
      out.timeline = (scenario.timeline + entries).enumerated()
        .sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
    }
    return out
  }
}
