import SafeOutput
import SimKernel
import TransferEngine

/// `expect`: each item names what it is about with one key (`task`, `app`, `rateLimiter`,
/// `trace`, `lint`) and says what must hold with the others.
extension ValueType where T == [Expectation] {
  static var expectations: ValueType<[Expectation]> {
    .objects("an expectation like {\"task\": \"book\", \"state\": \"completed\"}") { r in
      let subjects = ["task", "app", "rateLimiter", "trace", "lint"]
      let present = subjects.filter(r.has)
      guard present.count == 1, let subject = present.first else {
        let message =
          present.isEmpty
          ? "an expectation needs one of \(subjects.joined(separator: ", ")) to say what it is about"
          : "an expectation is about one thing; found \(present.joined(separator: " and ")), split it into separate items"
        r.context.report(present.isEmpty ? .missingKey : .value, r.path, at: r.value.position, message)
        r.acceptAll()
        return nil
      }
      let form: Expectation.Form?
      switch subject {
      case "task": form = ExpectDecoding.task(&r)
      case "app": form = ExpectDecoding.app(&r)
      case "rateLimiter": form = ExpectDecoding.rateLimiter(&r)
      case "trace": form = ExpectDecoding.trace(&r)
      default: form = ExpectDecoding.lint(&r)
      }
      let quantifier = subject == "task" ? ExpectDecoding.quantifier(&r) : nil
      return form.map { Expectation($0, path: r.path, quantifier: quantifier) }
    }
  }
}

/// The expectation forms of scenario-format.md, one function each.
enum ExpectDecoding {
  /// Error names of behavior.md's table.
  static let errorNames = [
    "cancelled", "timedOut", "networkConnectionLost", "httpTooManyRedirects", "notConnectedToInternet",
    "backgroundSessionRequiresSharedContainer", "backgroundSessionInUseByAnotherProcess",
    "backgroundSessionWasDisconnected",
  ]
  /// `NSURLErrorBackgroundTaskCancelledReasonKey` values.
  static let cancelReasons = [
    "userForceQuitApplication", "backgroundUpdatesDisabled", "insufficientSystemResources",
  ]

  /// `"all": true` or `"any": true`, required with a `*` pattern and refused without one.
  static func quantifier(_ r: inout ObjectReader) -> TaskQuantifier? {
    let all = r.optional("all", .bool)
    let any = r.optional("any", .bool)
    guard let pattern = r.raw("task")?.string else { return nil }
    let given = [(TaskQuantifier.all, all), (.any, any)].filter { $0.1 == true }.map(\.0)
    if !pattern.containsBytes(of: "*") {
      if !given.isEmpty || all != nil || any != nil {
        r.context.report(
          .value, r.path, at: r.value.position,
          "'all' and 'any' apply to a task pattern with '*'; '\(pattern)' names one task, so leave them out")
      }
      return nil
    }
    guard given.count == 1 else {
      r.context.report(
        given.isEmpty ? .missingKey : .value, r.path, at: r.value.position,
        given.isEmpty
          ? "task pattern '\(pattern)' needs \"all\": true (every matching task) or \"any\": true (at least one)"
          : "give one of \"all\": true and \"any\": true, not both")
      return nil
    }
    return given[0]
  }

  static func task(_ r: inout ObjectReader) -> Expectation.Form? {
    // A `*` pattern is matched against the run's tasks; a plain name must be created by some action.
    let isPattern = r.raw("task")?.string?.containsBytes(of: "*") == true
    let task =
      isPattern
      ? r.required("task", .name("a task name or pattern"))
      : r.reference("task", .name("a task name"), into: \.expectedTasks)
    let facts = ["state", "startsAfter", "error", "resumedAtOffset", "status"]
    let present = facts.filter(r.has)
    guard present.count == 1 else {
      let message =
        present.isEmpty
        ? "missing what to expect of the task: one of \(facts.joined(separator: ", "))"
        : "an expectation checks one fact; found \(present.joined(separator: " and ")), split it into separate items"
      r.context.report(present.isEmpty ? .missingKey : .value, r.path, at: r.value.position, message)
      r.accept("state", "startsAfter", "error", "resumedAtOffset", "status", "by", "reason")
      return nil
    }
    switch present[0] {
    case "state":
      let state: ExpectedTaskState? = r.required("state", .enumeration("task state"))
      let by = r.optional("by", .instant)
      guard let task, let state else { return nil }
      return .taskState(task: task, state: state, by: by)
    case "startsAfter":
      let after = r.required("startsAfter", .instant)
      guard let task, let after else { return nil }
      return .startsAfter(task: task, after)
    case "error":
      let name = r.required("error", .oneOf(errorNames, "error name"))
      let reason = r.optional("reason", .oneOf(cancelReasons, "cancel reason"))
      guard let task, let name else { return nil }
      return .error(task: task, name: name, reason: reason)
    case "resumedAtOffset":
      let offset = r.required("resumedAtOffset", .byteRange)
      guard let task, let offset else { return nil }
      return .resumedAtOffset(task: task, offset)
    default:
      let status = r.required("status", .int(100...599, "an HTTP status from 100 to 599"))
      guard let task, let status else { return nil }
      return .status(task: task, status)
    }
  }

  static func app(_ r: inout ObjectReader) -> Expectation.Form? {
    if r.raw("app")?.string == "state" {
      let at = r.required("at", .instant)
      let state: AppState? = r.required("equals", .enumeration("app state"))
      guard let at, let state else { return nil }
      return .appState(at: at, state)
    }
    let counter: AppCounter? = r.required("app", .enumeration("app counter"))
    let comparison = comparison(&r)
    guard let counter, let comparison else { return nil }
    return .appCounter(name: counter.rawValue, comparison)
  }

  static func rateLimiter(_ r: inout ObjectReader) -> Expectation.Form? {
    let what = r.required("rateLimiter", .oneOf(["delayAtWake"], "rate limiter fact"))
    let wake = r.required("wake", .int(1...1_000_000, "a wake number from 1"))
    let delay = r.required("equals", .duration)
    guard what != nil, let wake, let delay else { return nil }
    return .delayAtWake(wake: wake, delay)
  }

  /// A pattern list (`inOrder`, default true: the patterns must match events in that order;
  /// false: each must match some event) or one pattern that must match some event. With one
  /// pattern, `count` bounds the number of matching events: a plain integer means exactly
  /// that many, or an object `{"atLeast": n}`, `{"atMost": n}` or `{"equals": n}`.
  static func trace(_ r: inout ObjectReader) -> Expectation.Form? {
    guard let value = r.raw("trace") else { return nil }
    let path = JSONPath.member(r.path, "trace")
    if value.array != nil {
      let patterns = ValueType<[String]>.array(.tracePattern).decode(value, path, r.context)
      let inOrder = r.optional("inOrder", .bool)
      if let patterns, patterns.isEmpty, value.array?.isEmpty == true {
        r.context.invalid(path, value, "the list of trace patterns is empty; give at least one")
        return nil
      }
      guard let patterns, patterns.count == value.array?.count else { return nil }
      return .trace(patterns: patterns, inOrder: inOrder ?? true)
    }
    let pattern = ValueType<String>.tracePattern.decode(value, path, r.context)
    guard r.has("count") else { return pattern.map { .trace(patterns: [$0], inOrder: true) } }
    let count = r.optional(
      "count",
      .object("a count: an integer, or {\"atLeast\": n}, {\"atMost\": n} or {\"equals\": n}") { c in
        comparison(&c)
      }
      .orInteger)
    guard let pattern, let count else { return nil }
    return .traceCount(pattern: pattern, count)
  }

  static func lint(_ r: inout ObjectReader) -> Expectation.Form? {
    let rule: LintRule? = r.required("lint", .enumeration("lint rule"))
    let present = r.optional("present", .bool)
    guard let rule else { return nil }
    return .lint(rule: rule.rawValue, present: present ?? true)
  }

  /// Exactly one of `equals`, `atLeast`, `atMost`, each a non-negative integer.
  static func comparison(_ r: inout ObjectReader) -> Comparison? {
    let keys = ["equals", "atLeast", "atMost"]
    let present = keys.filter(r.has)
    let count = ValueType<Int64>.integer(0...Int64.max, "a count of 0 or more")
    guard present.count == 1 else {
      let message =
        present.isEmpty
        ? "missing the comparison: one of equals, atLeast, atMost"
        : "give one comparison; found \(present.joined(separator: " and "))"
      r.context.report(present.isEmpty ? .missingKey : .value, r.path, at: r.value.position, message)
      r.accept("equals", "atLeast", "atMost")
      return nil
    }
    guard let n = r.required(present[0], count) else { return nil }
    switch present[0] {
    case "equals": return .equals(n)
    case "atLeast": return .atLeast(n)
    default: return .atMost(n)
    }
  }
}

extension ValueType where T == Comparison {
  /// Also accepts a plain integer, meaning `equals`.
  var orInteger: ValueType<Comparison> {
    let object = self
    return ValueType(expected: expected) { v, path, ctx in
      guard v.number != nil else { return object.decode(v, path, ctx) }
      return ValueType<Int64>.integer(0...Int64.max, "a count of 0 or more").decode(v, path, ctx).map {
        .equals($0)
      }
    }
  }
}

extension ValueType where T == String {
  /// A string from a fixed list, with a suggestion when misspelt.
  static func oneOf(_ names: [String], _ noun: String) -> ValueType<String> {
    let expected = "one of \(names.joined(separator: ", "))"
    return ValueType(expected: expected) { v, path, ctx in
      guard let s = v.string else { return nilAfter(ctx.wrongType(path, v, expected: expected)) }
      if names.contains(s) { return s }
      let hint =
        Suggestion.didYouMean(s, among: names).map { "did you mean '\($0)'?" } ?? "expected \(expected)"
      return nilAfter(ctx.invalid(path, v, "unknown \(noun) '\(TerminalText.shortened(s))'; \(hint)"))
    }
  }

  /// `kind key=value ...`: an event kind, then fields to match (`*` matches any run of characters).
  static var tracePattern: ValueType<String> {
    let expected = "a trace pattern like \"delegate.didComplete task=book\""
    return ValueType(expected: expected) { v, path, ctx in
      guard let s = v.string else { return nilAfter(ctx.wrongType(path, v, expected: expected)) }
      let words = s.split(separator: " ")
      guard let kind = words.first, !kind.containsBytes(of: "=") else {
        return nilAfter(
          ctx.invalid(
            path, v,
            "trace pattern \"\(TerminalText.shortened(s))\" must start with an event kind such as task.started"
          ))
      }
      let shown = TerminalText.shortened(s)
      if let bad = words.dropFirst().first(where: { !$0.containsBytes(of: "=") || $0.hasPrefix("=") }) {
        return nilAfter(
          ctx.invalid(
            path, v,
            "'\(TerminalText.shortened(String(bad)))' in trace pattern \"\(shown)\" is not a key=value field"
          ))
      }
      if let pattern = TracePattern(s), let problem = TraceVocabulary.problem(with: pattern) {
        return nilAfter(ctx.invalid(path, v, "\(problem) (in trace pattern \"\(shown)\")"))
      }
      return s
    }
  }
}

extension ValueType where T == Comparison {
  /// A size (exactly), or `{"equals": SIZE}`, `{"atLeast": SIZE}`, `{"atMost": SIZE}`.
  static var byteRange: ValueType<Comparison> {
    let expected = "a size like \"12MB\", or a range like {\"atLeast\": \"50MB\"}"
    return ValueType(expected: expected) { v, path, ctx in
      guard v.members != nil else { return ValueType<Int64>.size.decode(v, path, ctx).map(Comparison.equals) }
      guard var r = ObjectReader(v, path: path, context: ctx, expected: expected) else { return nil }
      let keys = ["equals", "atLeast", "atMost"]
      let present = keys.filter(r.has)
      guard present.count == 1 else {
        ctx.invalid(
          path, v, "give one of equals, atLeast, atMost with a size, such as {\"atLeast\": \"50MB\"}")
        r.acceptAll()
        r.finish()
        return nil
      }
      let bytes = r.required(present[0], .size)
      r.finish()
      guard let bytes else { return nil }
      switch present[0] {
      case "equals": return .equals(bytes)
      case "atLeast": return .atLeast(bytes)
      default: return .atMost(bytes)
      }
    }
  }
}
