import SimKernel
import TransferEngine

/// The verdict on one `expect` item.
public struct ExpectationResult: Sendable {
  /// `expect[2]`.
  public var path: String
  /// What was expected, in words.
  public var expected: String
  /// Whether the expectation held.
  public var passed: Bool
  /// What happened instead (empty when it passed).
  public var found: String
  /// The trace lines nearest to the failure, to start reading from.
  public var nearby: [TraceEvent]
}

/// Checks expectations against a finished run's trace. Everything is read from the trace, so an
/// expectation means the same thing whether the run came from a scenario or from Swift code.
///
/// A task expectation reads only its task's events, from an index built in one pass over the
/// trace, so a `*` pattern over N tasks costs O(trace + N), not N passes over the trace. The
/// other forms read the events of their kind (`TraceKindIndex`, one more pass, made when first
/// needed), so N of them cost O(trace + what they read); N trace counts of one pattern read its
/// events once.
public struct ExpectationEvaluator {
  private let trace: [TraceEvent]
  let endTime: SimTime
  /// Each task's events and the created tasks in order, built once per trace.
  let tasks: TaskEventIndex
  /// Each kind's events, for the forms that are not about a task.
  private let kinds: TraceKindIndex
  /// Counts the passes over the whole trace (`tracePasses`).
  private let passes: PassCounter
  /// The events each trace-count pattern matched, by its text: N expectations that count the
  /// same pattern (one per task of a `count`, say) read its events once.
  private let counted = TraceCountMemo()

  /// An evaluator of `trace`, a run that ended at `endTime`.
  public init(trace: TraceLog, endTime: SimTime) {
    self.trace = trace.events
    self.endTime = endTime
    self.tasks = TaskEventIndex(trace.events)
    let passes = PassCounter()
    self.passes = passes
    self.kinds = TraceKindIndex(trace.events, passes: passes)
  }

  /// The whole trace, for the forms that are not about one task; each use is counted.
  var events: [TraceEvent] {
    passes.count += 1
    return trace
  }

  /// Times the evaluator read the whole trace: one index of tasks, one of kinds when a form
  /// needs it, and one per trace pattern whose kind has a `*` and names no task (for a trace
  /// count, one per different pattern); never one per
  /// task a pattern matches, nor one per expectation of the other forms (the test of issue 26's
  /// "no quadratic path").
  var tracePasses: Int { passes.count + 1 }

  /// Times a kind's events (or, for a pattern with a `*` kind, the trace's) were read to file them
  /// by a field some pattern gives a value of: once per (kind, field key), however many patterns
  /// give one.
  var kindFieldReads: Int { kinds.fieldReads }

  /// Times a trace-count pattern's events were read: once per different pattern.
  var countedPatterns: Int { counted.reads }

  /// The verdict on each expectation, in order.
  public func evaluate(_ expectations: [Expectation]) -> [ExpectationResult] {
    expectations.map(evaluate)
  }

  func taskEvents(_ task: String) -> [TraceEvent] { tasks.events(of: task) }

  func evaluate(_ expectation: Expectation) -> ExpectationResult {
    guard let quantifier = expectation.quantifier, let pattern = expectation.form.task else {
      return evaluateOne(expectation)
    }
    let names = tasks.created(matching: pattern)
    let results = names.map {
      evaluateOne(Expectation(expectation.form.with(task: $0), path: expectation.path))
    }
    let one = results.first?.expected ?? evaluateOne(expectation).expected
    let expected =
      "\(quantifier.rawValue) tasks '\(pattern)': "
      + one.replacingAll("task '\(names.first ?? pattern)' ", with: "")
    guard !names.isEmpty else {
      return ExpectationResult(
        path: expectation.path, expected: expected, passed: false,
        found: "no task matches '\(pattern)'", nearby: tasks.lastCreations(6))
    }
    let failures = zip(names, results).filter { !$0.1.passed }
    let passed = quantifier == .all ? failures.isEmpty : failures.count < results.count
    guard !passed, let first = failures.first else {
      return ExpectationResult(
        path: expectation.path, expected: expected, passed: true, found: "", nearby: [])
    }
    let found =
      quantifier == .all
      ? "\(failures.count) of \(names.count) matching tasks do not; the first: \(first.1.found)"
      : "none of the \(names.count) matching tasks does; the first: \(first.1.found)"
    return ExpectationResult(
      path: expectation.path, expected: expected, passed: false, found: found, nearby: first.1.nearby)
  }

  func evaluateOne(_ expectation: Expectation) -> ExpectationResult {
    let path = expectation.path
    func verdict(
      _ expected: String, _ ok: Bool, _ found: @autoclosure () -> String,
      _ nearby: @autoclosure () -> [TraceEvent]
    )
      -> ExpectationResult
    {
      ok
        ? ExpectationResult(path: path, expected: expected, passed: true, found: "", nearby: [])
        : ExpectationResult(
          path: path, expected: expected, passed: false, found: found(), nearby: Array(nearby().suffix(6)))
    }
    switch expectation.form {
    case .taskState(let task, let state, let by):
      let mine = taskEvents(task)
      let (actual, at) = finalState(of: task, mine)
      let expected = "task '\(task)' \(state.rawValue)" + (by.map { " by \($0)" } ?? "")
      let ok = actual == state && (by == nil || (at ?? endTime) <= by!)
      guard tasks.wasCreated(task) else {
        return verdict(expected, false, neverCreated(task), kinds.events(of: .appResumeDataUnavailable))
      }
      let found =
        "task '\(task)' is \(actual.rawValue)"
        + (at.map { " since \($0.sinceStart.readable)" } ?? " at the end (\(endTime.sinceStart.readable))")
      return verdict(expected, ok, found, mine)
    case .startsAfter(let task, let time):
      let mine = taskEvents(task)
      let started = mine.first { $0.is(.taskStarted) }
      let expected = "task '\(task)' starts at or after \(time)"
      return verdict(
        expected, started.map { $0.time >= time } ?? false,
        started.map { "it started at \($0.time.sinceStart.readable)" } ?? "it never started", mine)
    case .error(let task, let name, let reason):
      let mine = taskEvents(task)
      let end = mine.last { $0.is(.taskFailed) || $0.is(.taskCancelled) }
      let expected = "task '\(task)' ends with error \(name)" + (reason.map { " (reason \($0))" } ?? "")
      let ok = end?["error"] == .string(name) && (reason == nil || end?["reason"] == .string(reason!))
      let found =
        end.map {
          "it ended with \($0["error"]?.description ?? "?")" + ($0["reason"].map { " (reason \($0))" } ?? "")
        }
        ?? "it ended without an error"
      return verdict(expected, ok, found, mine)
    case .resumedAtOffset(let task, let comparison):
      let mine = taskEvents(task)
      let offsets = mine.compactMap { e -> Int64? in
        guard e.is(.delegateDidResumeAtOffset) || e.is(.taskRetry),
          case .int(let v)? = e["offset"]
        else { return nil }
        return v
      }
      let expected: String
      switch comparison {
      case .equals(let bytes): expected = "task '\(task)' resumes at offset \(bytes)"
      case .atLeast(let bytes): expected = "task '\(task)' resumes at an offset of at least \(bytes)"
      case .atMost(let bytes): expected = "task '\(task)' resumes at an offset of at most \(bytes)"
      }
      let found =
        offsets.isEmpty
        ? "it never resumed" : "it resumed at \(offsets.map(String.init).joined(separator: ", "))"
      return verdict(expected, offsets.contains(where: comparison.holds), found, mine)
    case .status(let task, let status):
      let mine = taskEvents(task)
      let done = mine.last { $0.is(.taskFinished) }
      let expected = "task '\(task)' finishes with HTTP status \(status)"
      return verdict(
        expected, done?["status"] == .int(Int64(status)),
        done.map { "status \($0["status"]?.description ?? "?")" } ?? "it never finished", mine)
    case .appCounter(let name, let comparison):
      let counter = AppCounter(rawValue: name)
      let value = counter.map(kinds.count) ?? 0
      let expected = "app \(name) \(describe(comparison))"
      return verdict(expected, counter != nil && comparison.holds(value), "\(value)", kinds.lastAppEvents(6))
    case .appState(let at, let state):
      let lifecycle = kinds.lifecycle(until: at).suffix(6).map { trace[$0] }
      let actual = lifecycle.last.map(Self.state(after:)) ?? .notRunning
      let since = lifecycle.last.map { " since \($0.time)" } ?? " (it never ran)"
      return verdict(
        "app \(state.rawValue) at \(at)", actual == state, "it is \(actual.rawValue) at \(at)\(since)",
        lifecycle)
    case .delayAtWake(let wake, let delay):
      // Positions, not events: one expectation per wake must not copy every wake each.
      let wakes = kinds.positions(of: TraceKind.rateLimiterWake.rawValue)
      let actual = wake >= 1 && wake <= wakes.count ? trace[wakes[wake - 1]]["delay"] : nil
      let expected = "rate limiter delay \(delay) at wake \(wake)"
      let found = actual.map { "delay \($0)" } ?? "only \(wakes.count) wake(s)"
      return verdict(expected, actual == .duration(delay), found, wakes.suffix(6).map { trace[$0] })
    case .trace(let patterns, let inOrder):
      return traceExpectation(path, patterns, inOrder)
    case .traceCount(let text, let comparison):
      let pattern = TracePattern(text)
      var matching: TraceCountMemo.Matches = (0, [])
      if let p = pattern { matching = counted.matches(of: p) { candidates(for: p).filter(p.matches) } }
      let expected = "trace '\(text)' occurs \(describe(comparison))"
      let kind = pattern?.kind ?? ""
      return verdict(
        expected, comparison.holds(Int64(matching.count)), "it occurs \(matching.count) time(s)",
        matching.count == 0 ? lastOfKind(kind) : matching.last)
    case .lint(let rule, let present):
      let lints = kinds.lints(rule: rule)
      let expected = "lint \(rule) " + (present ? "present" : "absent")
      let found = lints.isEmpty ? "no \(rule) lint" : "\(lints.count) \(rule) lint(s)"
      let shown = lints.isEmpty ? kinds.positions(of: TraceKind.lint.rawValue) : lints
      return verdict(expected, lints.isEmpty != present, found, shown.suffix(6).map { trace[$0] })
    }
  }

  /// The events `pattern` can match, in trace order: a pattern that names tasks (`task=book`,
  /// `task=book-*`) reads those tasks' events only, not the whole trace once per expectation.
  private func candidates(for pattern: TracePattern) -> [TraceEvent] {
    guard let positions = candidatePositions(for: pattern) else { return events }
    return positions.map { trace[$0] }
  }

  /// The last events whose kind `kind` (possibly with `*`) matches, as many as a failed verdict
  /// shows: N failing counts of one kind must not each copy all its events.
  private func lastOfKind(_ kind: String) -> [TraceEvent] {
    let kept = TraceCountMemo.kept
    guard kind.utf8.contains(TracePattern.star) else {
      return kinds.positions(of: kind).suffix(kept).map { trace[$0] }
    }
    return Array(
      events.reversed().lazy.filter { TracePattern.wildcardMatch(kind, $0.kind) }.prefix(kept).reversed())
  }

  /// Where in the trace the events `pattern` can match are, in order, from the task index: one
  /// task's when it names one exactly, the tasks its `*` can match otherwise; else from the kind
  /// index, narrowed by the pattern's first field whose value can be looked up (exact, or with a
  /// literal beginning or end), or its kind's events when its kind has no `*`. Nil when every
  /// event can.
  private func candidatePositions(for pattern: TracePattern) -> [Int]? {
    if tasks.tasksAreText, let value = pattern.value(of: "task"),
      let positions = tasks.positions(matching: value)
    {
      return positions
    }
    let literalKind = !pattern.kind.utf8.contains(TracePattern.star)
    let kind = literalKind ? pattern.kind : nil
    if let field = pattern.lookupField(skipping: tasks.tasksAreText ? "task" : nil),
      let positions = kinds.positions(of: kind, field: field.key, value: field.value)
    {
      return positions
    }
    return literalKind ? kinds.positions(of: pattern.kind) : nil
  }

  /// The first event at or after `start` that `pattern` matches.
  private func firstMatch(_ pattern: TracePattern, from start: Int) -> Int? {
    guard let positions = candidatePositions(for: pattern) else {
      return events[start...].firstIndex(where: pattern.matches)
    }
    return positions[positions.partitioningIndex { $0 >= start }...].first { pattern.matches(trace[$0]) }
  }

  private func traceExpectation(_ path: String, _ texts: [String], _ inOrder: Bool) -> ExpectationResult {
    let patterns = texts.compactMap(TracePattern.init)
    let expected = (inOrder ? "in order: " : "each of: ") + texts.joined(separator: ", ")
    var position = 0
    for (i, pattern) in patterns.enumerated() {
      let start = inOrder ? position : 0
      guard let index = firstMatch(pattern, from: start) else {
        let previous = i > 0 ? " after '\(texts[i - 1])'" : ""
        let elsewhere = firstMatch(pattern, from: 0)
        let found =
          "'\(texts[i])' did not occur\(previous)" + (elsewhere.map { _ in " (it occurs earlier)" } ?? "")
        // A few events around where the search began: a slice, not a pass over the trace.
        let around = Array(trace[max(0, start - 3)..<min(trace.count, start + 3)])
        return ExpectationResult(path: path, expected: expected, passed: false, found: found, nearby: around)
      }
      position = index + 1
    }
    return ExpectationResult(path: path, expected: expected, passed: true, found: "", nearby: [])
  }

  /// Why a task the scenario names has no events: never created, and if the app tried to
  /// resume a task without resume data (the usual cause), when and where.
  private func neverCreated(_ task: String) -> String {
    let notes = kinds.events(of: .appResumeDataUnavailable)
    var text = "task '\(task)' was never created"
    guard !notes.isEmpty else { return text }
    let listed = notes.prefix(3).map { note in
      "'\(note["task"]?.description ?? "?")' at \(note.time) (\(note["path"]?.description ?? "?"))"
    }
    text += "; resumeFromData found no resume data for " + listed.joined(separator: ", ")
    if notes.count > 3 { text += " and \(notes.count - 3) more" }
    return text + ", so the app created no task from it"
  }

  /// The state an `app.*` lifecycle event leaves the app in (behavior.md, App lifecycle).
  static func state(after event: TraceEvent) -> AppState {
    let reason = event["reason"]?.description
    switch event.traceKind {
    case .appLaunch?: return reason == "background" ? .background : .foreground
    case .appForeground?: return .foreground
    case .appBackground?: return .background
    case .appSuspend?: return .suspended
    case .appResume?: return reason == "user" ? .foreground : .background
    default: return .notRunning
    }
  }

  private func finalState(of task: String, _ mine: [TraceEvent]) -> (ExpectedTaskState, SimTime?) {
    if let end = mine.last(where: { $0.traceKind.map(TraceKind.taskEndings.contains) == true }) {
      switch end.traceKind {
      case .taskFinished?: return (.completed, end.time)
      case .taskFailed?: return (.failed, end.time)
      default: return (.cancelled, end.time)
      }
    }
    guard mine.contains(where: { $0.is(.taskResume) }) else { return (.suspended, nil) }
    let running = mine.last {
      $0.is(.taskStarted) || $0.is(.taskRetry) || $0.is(.taskInterrupted) || $0.is(.taskDeferred)
    }
    return (
      running.map { $0.is(.taskStarted) || $0.is(.taskRetry) } == true ? .running : .waiting, nil
    )
  }

  private func describe(_ comparison: Comparison) -> String {
    switch comparison {
    case .equals(let v): return "equals \(v)"
    case .atLeast(let v): return "at least \(v)"
    case .atMost(let v): return "at most \(v)"
    }
  }
}

/// A counter the evaluator (a value) can bump from its non-mutating methods.
final class PassCounter {
  var count = 0
}

/// How many events each trace-count pattern matched, and the last few (all a verdict shows),
/// kept by the evaluator (a value) from its non-mutating methods. Only the last few are kept, so
/// N different patterns that each match much of a long trace hold N small lists, not N copies.
final class TraceCountMemo {
  typealias Matches = (count: Int, last: [TraceEvent])
  /// By the pattern's text as UTF-8 bytes, the way patterns match: a `String` key would take a
  /// pattern written in another Unicode normalization form for the same one.
  private var matched: [WrittenKey: Matches] = [:]
  /// How many patterns were read (not found here).
  private(set) var reads = 0
  /// The events kept of each pattern's: as many as a failed verdict shows.
  static let kept = 6

  /// What `pattern` matches: `read()` the first time its text is asked for, kept after.
  func matches(of pattern: TracePattern, _ read: () -> [TraceEvent]) -> Matches {
    let text = WrittenKey(pattern.description)
    if let known = matched[text] { return known }
    reads += 1
    let events = read()
    let matches = (events.count, Array(events.suffix(Self.kept)))
    matched[text] = matches
    return matches
  }
}
