import SafeOutput

/// Every event kind the engine and the scripted app write to the trace, with the keys each
/// can carry: `expect` trace patterns are checked against it, so that a misspelt kind
/// (`task.finshed`) or key (`tsak=`) is an error instead of a pattern that never matches.
///
/// A test runs the shipped scenarios and fuzzed ones and checks that every event they write
/// is listed here, so the table cannot fall behind the engine.
public enum TraceVocabulary {
  /// Kind -> the keys its events may have.
  public static let keys: [String: Set<String>] = [
    "app.background": [],
    "app.completionHandlerCalled": ["session"],
    "app.foreground": [],
    "app.launch": ["reason"],
    "app.resume": ["reason"],
    "app.resumeDataUnavailable": ["path", "task"],
    "app.suspend": [],
    "app.terminate": ["reason"],
    "delegate.didComplete": ["code", "error", "reason", "resumeDataOffset", "status", "task"],
    "delegate.didFinishDownloading": ["bytes", "description", "task"],
    "delegate.didFinishEvents": ["session"],
    "delegate.didReceiveData": ["bytes", "task"],
    "delegate.didResumeAtOffset": ["offset", "task", "total"],
    "delegate.didWriteData": ["task", "totalBytesExpectedToWrite", "totalBytesWritten"],
    "delegate.handleEvents": ["session"],
    "delegate.taskIsWaitingForConnectivity": ["task"],
    "delegate.willPerformHTTPRedirection": ["task", "to"],
    "lint": ["message", "rule", "session", "task"],
    "network.change": ["constrained", "down", "expensive", "interface", "latency", "up"],
    "power.change": ["battery", "charging", "lowPowerMode"],
    "ratelimiter.reset": ["reason"],
    "ratelimiter.wake": ["delay", "wake"],
    "server.change": ["etag", "size", "status", "url"],
    "session.allTasks": ["session", "tasks"],
    "session.created": ["kind", "session"],
    "session.invalidated": ["cancelTasks", "session"],
    "task.cancelled": ["code", "error", "reason", "resumeDataOffset", "session", "task"],
    "task.created": ["discretionary", "kind", "session", "task", "taskIdentifier", "url"],
    "task.deferred": ["missing", "reason", "session", "task", "until"],
    "task.failed": ["code", "error", "resumeDataOffset", "session", "task"],
    "task.finished": ["bytes", "session", "status", "task"],
    "task.flowing": ["bytes", "task"],
    "task.interrupted": ["bytes", "reason", "task"],
    "task.lost": ["reason", "task"],
    "task.paused": ["reason", "task"],
    "task.redirect": ["from", "task", "to"],
    "task.restartedFromZero": ["reason", "task"],
    "task.resume": ["session", "task"],
    "task.retry": ["attempt", "offset", "session", "task"],
    "task.stalled": ["bytes", "task"],
    "task.started": ["session", "task", "taskIdentifier"],
  ]

  /// Every kind, sorted.
  public static let kinds: [String] = keys.keys.sorted()

  /// Keys every event has in the JSON trace (`t`, `at`, `kind`): a pattern cannot match on them.
  static let timeKeys: Set<String> = ["t", "at", "kind"]

  /// Why `pattern` can never match an event, or nil when it can. Kinds may use `*`; keys may not.
  static func problem(with pattern: TracePattern) -> String? {
    let kinds = self.kinds.filter { TracePattern.wildcardMatch(pattern.kind, $0) }
    let shownKind = TerminalText.shortened(pattern.kind)
    guard !kinds.isEmpty else {
      if pattern.kind.contains("*") {
        return "no event kind matches '\(shownKind)'; kinds are \(families)"
      }
      let hint = Suggestion.didYouMean(pattern.kind, among: self.kinds).map { "did you mean '\($0)'?" }
      return "unknown event kind '\(shownKind)'; \(hint ?? "kinds are \(families)")"
    }
    let allowed = kinds.reduce(into: Set<String>()) { $0.formUnion(keys[$1] ?? []) }
    for (key, _) in pattern.fields where !allowed.contains(key) {
      let sorted = allowed.sorted()
      let what = kinds.count == 1 ? kinds[0] : "'\(shownKind)'"
      let shownKey = TerminalText.shortened(key)
      if timeKeys.contains(key) {
        return "'\(shownKey)' cannot be matched in a trace pattern; the pattern's first word is the kind"
      }
      if let suggestion = Suggestion.didYouMean(key, among: sorted) {
        return "\(what) events have no key '\(shownKey)'; did you mean '\(suggestion)'?"
      }
      let list = sorted.isEmpty ? "no keys" : "keys " + sorted.joined(separator: ", ")
      return "\(what) events have no key '\(shownKey)'; they have \(list)"
    }
    return nil
  }

  /// `app.*, delegate.*, lint, ...`: the families of kinds, for messages.
  static var families: String {
    var seen: [String] = []
    for kind in kinds {
      let family = kind.contains(".") ? String(kind.prefix { $0 != "." }) + ".*" : kind
      if !seen.contains(family) { seen.append(family) }
    }
    return seen.joined(separator: ", ")
  }
}
