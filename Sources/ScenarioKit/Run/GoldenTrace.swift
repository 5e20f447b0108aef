import SimKernel

/// Golden traces: a shipped scenario may keep its expected trace beside it
/// (`Scenarios/<name>.trace.jsonl`); `bgsim check` compares the run's trace with it.
public enum GoldenTrace {
  /// The golden file that belongs to a scenario file: `x.json` -> `x.trace.jsonl`.
  public static func path(forScenario file: String) -> String {
    (file.hasSuffix(".json") ? String(file.dropLast(5)) : file) + ".trace.jsonl"
  }

  /// The first place two traces differ, as a small line diff.
  public struct Divergence: Sendable, CustomStringConvertible {
    /// 1-based line number.
    public var line: Int
    /// The simulated time (`at`) of the first differing line, when either line has one.
    public var at: String?
    /// The golden trace's line, or nil past its end.
    public var expected: String?
    /// The run's line, or nil past its end.
    public var actual: String?

    public var description: String {
      var out = "golden trace differs at line \(line)" + (at.map { " (simulated time \($0))" } ?? "") + ":\n"
      out += "  - " + (expected ?? "(end of golden trace)") + "\n"
      out += "  + " + (actual ?? "(end of trace)")
      return out
    }
  }

  /// Nil when the traces are identical byte for byte, else where they first differ. (`==` on
  /// text would take a name in another Unicode normalization form as the same.)
  public static func compare(golden: String, actual: String) -> Divergence? {
    let expected = golden.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let got = actual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let count = max(expected.count, got.count)
    for i in 0..<count {
      let e = i < expected.count ? expected[i] : nil
      let a = i < got.count ? got[i] : nil
      // One of them may have ended (never both: `i` is below the longer count).
      if let e, let a, e.hasSameUTF8(a) { continue }
      return Divergence(line: i + 1, at: (a ?? e).flatMap(atField), expected: e, actual: a)
    }
    return nil
  }

  /// The `"at"` value of a trace line, read without a JSON parser (the line format is fixed).
  static func atField(_ line: String) -> String? {
    guard let key = line.firstRange(of: "\"at\": \"") else { return nil }
    let rest = line[key.upperBound...]
    guard let end = rest.firstIndex(of: "\"") else { return nil }
    return String(rest[..<end])
  }
}
