import SimKernel
import TransferEngine

/// Where each kind of event sits in a trace, for the expectation forms that are not about a
/// task (app states and counters, wake delays, lints, trace counts and patterns of a literal
/// kind): each reads its kind's events, not the whole trace. Built on first use, in one pass.
///
/// Before it, every such expectation read the whole trace once: a scenario with thousands of
/// them over a long trace cost the product of the two (issue 26, "no quadratic path").
final class TraceKindIndex {
  private let trace: [TraceEvent]
  /// Told when the index reads the whole trace (`ExpectationEvaluator.tracePasses`).
  private let passes: PassCounter
  private var built = false
  /// Positions of the events of each kind, in trace order.
  private var byKind: [String: [Int]] = [:]
  /// Positions of the app's lifecycle events (`TraceKind.appLifecycle`), in trace order.
  private var lifecycleStore: [Int] = []
  /// Positions of every `app.*` event, in trace order.
  private var appStore: [Int] = []
  /// Positions of the lints of each rule, in trace order.
  private var lintsByRule: [String: [Int]] = [:]
  /// Each app counter, counted once.
  private var counters: [AppCounter: Int64] = [:]
  /// For each (kind, field key) some pattern gave a value of, and for each field key some pattern
  /// with a `*` kind gave (kind nil): those events by the field's value, built on first use.
  private var byField: [KindField: FieldValueIndex] = [:]
  /// How many of those were built: each read its kind's events, or the trace, once.
  private(set) var fieldReads = 0

  private struct KindField: Hashable {
    var kind: String?
    var key: String
  }

  init(_ trace: [TraceEvent], passes: PassCounter) {
    self.trace = trace
    self.passes = passes
  }

  /// Positions of the events of `kind` (a literal kind, no `*`).
  func positions(of kind: String) -> [Int] {
    build()
    return byKind[kind] ?? []
  }

  /// Positions of the events of `kind` (a literal kind; nil for every kind) whose field `key`
  /// `value` (exact, or with `*`) can match, in trace order; the caller still matches each. Nil
  /// when every event of the kind can (`FieldValueIndex.positions(matching:)`). N patterns that
  /// differ in that field's value read the kind's events, or the trace, once between them.
  func positions(of kind: String?, field key: String, value: String) -> [Int]? {
    let index = KindField(kind: kind, key: key)
    if let known = byField[index] { return known.positions(matching: value) }
    fieldReads += 1
    let events: FieldValueIndex
    if let kind {
      events = FieldValueIndex(positions(of: kind), in: trace, key: key)
    } else {
      passes.count += 1
      events = FieldValueIndex(trace.indices, in: trace, key: key)
    }
    byField[index] = events
    return events.positions(matching: value)
  }

  /// The events of `kind`, in trace order.
  func events(of kind: TraceKind) -> [TraceEvent] { positions(of: kind.rawValue).map { trace[$0] } }

  /// Positions of the lints of `rule`, in trace order.
  func lints(rule: String) -> [Int] {
    build()
    return lintsByRule[rule] ?? []
  }

  /// The app's lifecycle events at or before `time`: the last one tells its state then.
  func lifecycle(until time: SimTime) -> ArraySlice<Int> {
    build()
    return lifecycleStore[..<lifecycleStore.partitioningIndex { trace[$0].time > time }]
  }

  /// The last `count` `app.*` events, shown beside a counter that did not hold.
  func lastAppEvents(_ count: Int) -> [TraceEvent] {
    build()
    return appStore.suffix(count).map { trace[$0] }
  }

  /// How many times the app did what `counter` counts.
  func count(_ counter: AppCounter) -> Int64 {
    if let known = counters[counter] { return known }
    func n(_ kind: TraceKind, _ reason: String? = nil) -> Int64 {
      let mine = positions(of: kind.rawValue)
      guard let reason else { return Int64(mine.count) }
      return Int64(mine.lazy.filter { self.trace[$0]["reason"] == .string(reason) }.count)
    }
    let value: Int64
    switch counter {
    case .backgroundLaunches: value = n(.appLaunch, "background")
    case .backgroundResumes: value = n(.appResume, "background")
    case .userLaunches: value = n(.appLaunch, "user")
    case .wakes: value = n(.appLaunch, "background") + n(.appResume, "background")
    case .suspensions: value = n(.appSuspend)
    case .terminations: value = n(.appTerminate)
    case .completionHandlerCalls: value = n(.appCompletionHandlerCalled)
    }
    counters[counter] = value
    return value
  }

  /// The one pass over the trace.
  private func build() {
    guard !built else { return }
    built = true
    passes.count += 1
    for (position, event) in trace.enumerated() {
      byKind[event.kind, default: []].append(position)
    }
    var lifecycle: [Int] = []
    var app: [Int] = []
    for (kind, positions) in byKind {
      if let known = TraceKind(rawValue: kind), TraceKind.appLifecycle.contains(known) {
        lifecycle += positions
      }
      if kind.hasPrefix("app.") { app += positions }
    }
    // Merged from several kinds: put back in trace order.
    lifecycleStore = lifecycle.sorted()
    appStore = app.sorted()
    for position in byKind[TraceKind.lint.rawValue] ?? [] {
      guard case .string(let rule)? = trace[position]["rule"] else { continue }
      lintsByRule[rule, default: []].append(position)
    }
  }
}
