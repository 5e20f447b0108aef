import SafeOutput
import TransferEngine

/// The check of `expect` trace patterns against the engine's trace vocabulary (`TraceKind`):
/// a misspelt kind (`task.finshed`) or key (`tsak=`) is an error instead of a pattern that
/// never matches.
public enum TraceVocabulary {
  /// Kind -> the keys its events may have, from `TraceKind.fieldNames`.
  public static let keys: [String: Set<String>] = Dictionary(
    uniqueKeysWithValues: TraceKind.allCases.map { ($0.name, Set($0.fieldNames)) })

  /// Every kind, sorted.
  public static let kinds: [String] = keys.keys.sorted()

  /// Keys every event has in the JSON trace (`t`, `at`, `kind`): a pattern cannot match on them.
  static let timeKeys: Set<String> = ["t", "at", "kind"]

  /// Why `pattern` can never match an event, or nil when it can. Kinds may use `*`; keys may not.
  static func problem(with pattern: TracePattern) -> String? {
    let kinds = self.kinds.filter { TracePattern.wildcardMatch(pattern.kind, $0) }
    let shownKind = TerminalText.shortened(pattern.kind)
    guard !kinds.isEmpty else {
      if pattern.kind.containsBytes(of: "*") {
        return "no event kind matches '\(shownKind)'; kinds are \(families)"
      }
      let hint = Suggestion.didYouMean(pattern.kind, among: self.kinds).map { "did you mean '\($0)'?" }
      return "unknown event kind '\(shownKind)'; \(hint ?? "kinds are \(families)")"
    }
    let allowed = kinds.reduce(into: Set<String>()) { $0.formUnion(keys[$1] ?? []) }
    var seen: Set<String> = []
    for (key, _) in pattern.fields where !seen.insert(key).inserted {
      return "key '\(TerminalText.shortened(key))' appears twice; an event has one value for each key, "
        + "so split the pattern into two expectations"
    }
    for (key, value) in pattern.fields where !value.containsBytes(of: "*") {
      if let problem = literalProblem(key: key, value: value) { return problem }
    }
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

  /// Keys whose trace values are byte counts, written as whole numbers (`bytes=1000000`).
  static let byteKeys: Set<String> = [
    "bytes", "offset", "resumeDataOffset", "size", "total", "totalBytesExpectedToWrite", "totalBytesWritten",
  ]
  /// Keys whose trace values are durations or instants, written in their shortest form (`1m30s`).
  static let durationKeys: Set<String> = ["delay", "latency", "unlockAt", "until"]

  /// Why `key=value` can never equal the trace's text although it may mean the same thing
  /// (`bytes=1MB`, `delay=60s`): the trace writes one canonical form, and a pattern compares text,
  /// so the message names the form to write instead. Nil when the value is already canonical.
  static func literalProblem(key: String, value: String) -> String? {
    let shown = "\(TerminalText.shortened(key))=\(TerminalText.shortened(value))"
    if byteKeys.contains(key) {
      if let number = Int64(value), number >= 0 {
        return String(number) == value ? nil : "\(shown) never matches: the trace writes \(key)=\(number)"
      }
      guard let bytes = try? Literals.size(value) else {
        return
          "\(shown) never matches: the trace writes \(key) as a whole number of bytes, such as \(key)=1000000"
      }
      return "\(shown) never matches: the trace writes sizes in bytes, so write \(key)=\(bytes)"
    }
    if durationKeys.contains(key) {
      guard let duration = try? Literals.duration(value) else {
        return "\(shown) never matches: the trace writes \(key) as a duration such as \(key)=1m30s"
      }
      let canonical = duration.formatted
      return canonical == value
        ? nil
        : "\(shown) never matches: the trace writes durations in their shortest form, so write \(key)=\(canonical)"
    }
    return nil
  }

  /// `app.*, delegate.*, lint, ...`: the families of kinds, for messages.
  static var families: String {
    var seen: [String] = []
    for kind in kinds {
      let family = kind.containsBytes(of: ".") ? String(kind.prefix { $0 != "." }) + ".*" : kind
      if !seen.contains(family) { seen.append(family) }
    }
    return seen.joined(separator: ", ")
  }
}
