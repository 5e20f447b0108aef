/// Whether the same world, app and seed give the same trace: the traces of several runs, each
/// made from scratch, compared line by line, and the first line that differs with what most
/// likely made it differ. A simulation is only worth its replays if this holds.
///
/// `run(times:_:)` takes any function that builds and runs a world and returns its trace, so
/// an exploration tool can check its own runs the same way (`Simulation.checkDeterminism` is
/// the one-line form for a simulation).
public struct DeterminismCheck: Sendable, CustomStringConvertible {
  /// The first line where a run's trace left the first run's.
  public struct Difference: Sendable {
    /// Which run differed from the first (2 for the second run).
    public var run: Int
    /// The line's number in the traces, from 1.
    public var line: Int
    /// The first run's line there (nil: its trace had ended).
    public var expected: String?
    /// The other run's line there (nil: its trace had ended).
    public var actual: String?
    /// What most likely made the runs differ, most likely first.
    public var likelyCauses: [String]
  }

  /// How many runs were compared.
  public let runs: Int
  /// Events in the first run's trace.
  public let events: Int
  /// Nil when every run gave the first run's trace.
  public let difference: Difference?

  /// True when every run gave the first run's trace.
  public var isDeterministic: Bool { difference == nil }

  /// A report a test can print: the verdict, the two lines and the likely causes.
  public var description: String {
    guard let difference else { return "deterministic: \(runs) runs gave the same \(events)-event trace" }
    var text =
      "not deterministic: run \(difference.run) left run 1's trace at line \(difference.line)\n"
      + "  run 1: \(difference.expected ?? "(trace ended)")\n"
      + "  run \(difference.run): \(difference.actual ?? "(trace ended)")\n"
      + "likely causes:"
    for cause in difference.likelyCauses { text += "\n  - \(cause)" }
    return text
  }

  /// Runs `trace` `times` times (at least 2) and compares each trace with the first. Each call
  /// must build its world afresh (new simulation, new app objects): state carried from one run
  /// to the next (a static, a file outside the world) is one of the causes this finds.
  public static func run(times: Int = 2, _ trace: () throws -> [TraceEvent]) rethrows -> DeterminismCheck {
    let first = try trace()
    for run in 2...max(2, times) {
      let other = try trace()
      if let difference = firstDifference(first, other, run: run) {
        return DeterminismCheck(runs: run, events: first.count, difference: difference)
      }
    }
    return DeterminismCheck(runs: max(2, times), events: first.count, difference: nil)
  }

  /// The first line where `other` leaves `first`, with its likely causes; nil if none.
  public static func firstDifference(_ first: [TraceEvent], _ other: [TraceEvent], run: Int = 2)
    -> Difference?
  {
    let shared = min(first.count, other.count)
    var index = 0
    // As written: `==` would take a name in another Unicode normalization form as the same.
    while index < shared && first[index].isWrittenAs(other[index]) { index += 1 }
    guard index < shared || first.count != other.count else { return nil }
    let expected = index < first.count ? first[index] : nil
    let actual = index < other.count ? other[index] : nil
    return Difference(
      run: run, line: index + 1, expected: expected?.jsonLine, actual: actual?.jsonLine,
      likelyCauses: causes(first, other, at: index))
  }

  /// Lints that name a cause of non-determinism, with what each means.
  static let namedCauses: [(rule: String, cause: String)] = [
    (
      "callFromUndrainedQueue",
      "real threads: the app called URLSession from a thread or queue the simulation does not wait for"
    ),
    ("wallClockTimer", "wall clock: a real-time timer (asyncAfter, DispatchSourceTimer, Timer) ran app code"),
    ("wallClockDate", "wall clock: a Date from the host's clock (Date()) reached the simulation"),
    ("writeAfterTermination", "real threads: code of a terminated process wrote to the container"),
  ]

  static func causes(_ first: [TraceEvent], _ other: [TraceEvent], at index: Int) -> [String] {
    var causes: [String] = []
    let lints = Set((first + other).filter { $0.kind == "lint" }.compactMap { $0["rule"]?.description })
    for named in namedCauses where lints.contains(named.rule) {
      causes.append("\(named.cause) (the trace has the lint \(named.rule))")
    }
    let a = index < first.count ? first[index] : nil
    let b = index < other.count ? other[index] : nil
    if let a, let b, a.kind == b.kind, a.time == b.time {
      causes.append(
        "wall clock: the same event at the same time with other values (a value computed from Date() or "
          + "real elapsed time, or a random number not drawn from the seed)")
    } else if let a, let b, a.kind == b.kind {
      causes.append(
        "real threads or real-time timers: the same event at another simulated time (work that landed "
          + "after simulated time moved on)")
    } else if a == nil || b == nil {
      causes.append(
        "real threads: one run has events the other lacks at its end (work that landed after the run, or "
          + "in one run only)")
    }
    let window = 8
    let left = Array(first[index..<min(first.count, index + window)])
    let right = Array(other[index..<min(other.count, index + window)])
    if left.count == right.count, left != right, Set(left.map(\.jsonLine)) == Set(right.map(\.jsonLine)) {
      causes.append(
        "unordered collections: the same events in another order (iterating a Dictionary or a Set, or "
          + "threads racing)")
    }
    for general in [
      "real threads: a thread or queue the app owns, other than the delegate queue, its underlyingQueue and the main queue",
      "wall clock: Date(), DispatchTime.now(), asyncAfter or a Timer in place of SimulatedApplication.now, .after or .clock",
      "unordered collections: a Dictionary's or Set's iteration order, which changes with every process",
    ] where !causes.contains(where: { general.hasPrefix(String($0.prefix(while: { $0 != ":" }))) }) {
      causes.append(general)
    }
    return causes
  }
}
