import ScenarioKit
import SimKernel
import TransferEngine

/// What pairs an observed event with a simulated one: the kind (with the launch reason) and
/// the task or session it is about.
struct MatchKey: Hashable, Sendable {
  var kind: String
  /// Compared by its bytes: sessions whose identifiers differ only in their Unicode form are two.
  var subject: WrittenKey
}

/// The observed events calibration fits, keyed once so every candidate run is matched in
/// O(events): the i-th observed event of a key pairs with the i-th simulated event of that key.
public struct ObservedEvents: Sendable {
  /// The matched-kind events of the log, app-visible fields only, in order.
  public let events: [TraceEvent]
  /// The task (or session) each event is about, as the log names it ("" for app events).
  public let labels: [String]
  /// Events of the log an app cannot see (daemon side), left out of the fit.
  public let ignoredKinds: [String]
  let keys: [MatchKey]
  /// For each key, the indices of its events in `events`, in order.
  let byKey: [MatchKey: [Int]]

  public init(log: [TraceEvent]) {
    var ignored: Set<String> = []
    var kept: [TraceEvent] = []
    for event in log {
      if event.kind.hasPrefix(TraceLogReader.metadataPrefix) { continue }
      if let expiry = Self.delayExpiry(event) {
        kept.append(expiry)
        continue
      }
      guard let seen = ObservableTrace.project(event) else {
        ignored.insert(event.kind)
        continue
      }
      if ObservableTrace.isMatched(seen) { kept.append(seen) }
    }
    events = kept
    ignoredKinds = ignored.sorted()
    let identities = Self.taskIdentities(log)
    keys = kept.map { Self.key($0, identities) }
    labels = kept.map { Self.label($0) }
    var byKey: [MatchKey: [Int]] = [:]
    for (i, key) in keys.enumerated() { byKey[key, default: []].append(i) }
    self.byKey = byKey
  }

  /// Each observed event's simulated partner in `trace` (nil when it has none).
  ///
  /// - Complexity: O(trace events).
  public func match(_ trace: [TraceEvent]) -> [SimTime?] {
    var simulated = [SimTime?](repeating: nil, count: events.count)
    var seen: [MatchKey: Int] = [:]
    let identities = Self.taskIdentities(trace)
    for raw in trace {
      guard let event = ObservableTrace.isMatched(raw) ? raw : Self.delayExpiry(raw) else { continue }
      let key = Self.key(event, identities)
      guard let slots = byKey[key] else { continue }
      let n = seen[key, default: 0]
      seen[key] = n + 1
      if n < slots.count { simulated[slots[n]] = event.time }
    }
    return simulated
  }

  /// The kind under which a delay's expiry is matched.
  public static let delayExpiryKind = "ratelimiter.expiry"

  /// A `ratelimiter.wake` with its `delay` (the daemon's "Set request delay" line, which
  /// Console shows while the device is attached) as the instant that delay expires: the one
  /// daemon-side observation calibration uses, and only when the log carries it.
  static func delayExpiry(_ event: TraceEvent) -> TraceEvent? {
    guard event.traceKind == .rateLimiterWake else { return nil }
    let delay: SimDuration?
    switch event["delay"] {
    case .duration(let d)?: delay = d
    case .string(let text)?: delay = try? Literals.duration(text)
    case .int(let seconds)?: delay = .seconds(seconds)
    default: delay = nil
    }
    guard let delay else { return nil }
    return TraceEvent(
      time: event.time + delay, kind: delayExpiryKind, fields: [TraceField("delay", .string(delay.formatted))]
    )
  }

  /// A task's identity across logs: its session and `taskIdentifier`, which the system assigns
  /// in the same order on a device and in the simulation, so names may differ between the two.
  static func taskIdentities(_ events: [TraceEvent]) -> [WrittenKey: String] {
    var out: [WrittenKey: String] = [:]
    for event in events where event.kind == "task.created" {
      guard case .string(let name)? = event["task"], case .string(let session)? = event["session"],
        case .int(let id)? = event["taskIdentifier"]
      else { continue }
      out[WrittenKey(name)] = "\(session)#\(id)"
    }
    return out
  }

  static func key(_ event: TraceEvent, _ identities: [WrittenKey: String]) -> MatchKey {
    var kind = event.kind
    if kind == "app.launch", let reason = event["reason"] { kind += " reason=\(reason.description)" }
    if case .string(let task)? = event["task"] {
      return MatchKey(kind: kind, subject: WrittenKey(identities[WrittenKey(task)] ?? task))
    }
    if case .string(let session)? = event["session"] {
      return MatchKey(kind: kind, subject: WrittenKey("session:" + session))
    }
    return MatchKey(kind: kind, subject: WrittenKey(""))
  }

  static func label(_ event: TraceEvent) -> String {
    if let task = event["task"] { return task.description }
    if let session = event["session"] { return session.description }
    if let reason = event["reason"] { return "reason=\(reason.description)" }
    if let delay = event["delay"] { return "delay=\(delay.description)" }
    return ""
  }
}

/// How well one candidate's runs fit the log, summed over seeds.
public struct CandidateScore: Sendable, Comparable {
  /// Observed events with no simulated partner, over all seeds.
  public var unmatched: Int
  /// Sum of squared residuals in seconds squared, over matched events of all seeds.
  public var squaredError: Double
  /// Matched pairs counted in `squaredError`.
  public var matched: Int

  public init(unmatched: Int, squaredError: Double, matched: Int) {
    self.unmatched = unmatched
    self.squaredError = squaredError
    self.matched = matched
  }

  /// Root mean square residual in seconds (0 when nothing matched).
  public var rms: Double { matched == 0 ? 0 : (squaredError / Double(matched)).squareRoot() }

  /// Fewer unmatched events first, then the smaller error.
  public static func < (a: CandidateScore, b: CandidateScore) -> Bool {
    (a.unmatched, a.rms) < (b.unmatched, b.rms)
  }

  /// The score of one run's partners against the observed times.
  static func of(_ simulated: [SimTime?], observed: [TraceEvent]) -> CandidateScore {
    var score = CandidateScore(unmatched: 0, squaredError: 0, matched: 0)
    for (sim, obs) in zip(simulated, observed) {
      guard let sim else {
        score.unmatched += 1
        continue
      }
      let r = (sim - obs.time).seconds
      score.squaredError += r * r
      score.matched += 1
    }
    return score
  }

  static func + (a: CandidateScore, b: CandidateScore) -> CandidateScore {
    CandidateScore(
      unmatched: a.unmatched + b.unmatched, squaredError: a.squaredError + b.squaredError,
      matched: a.matched + b.matched)
  }
}
