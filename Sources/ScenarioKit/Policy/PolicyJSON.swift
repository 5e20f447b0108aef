import SimKernel
import TransferEngine

/// Why a `name=value` policy setting was refused.
public struct PolicySettingError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What was refused and what the setting accepts.
  public var message: String
  /// An error whose description is `message`.
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}

/// `Policy` in the scenario format's names: printed as JSON, and set knob by knob.
public enum PolicyJSON {
  /// The dotted names of every knob, in the format's order.
  public static var knobNames: [String] { PolicyKnob.all.map(\.name) }

  /// The policy as pretty JSON (two-space indent, the format's key order, no trailing newline);
  /// reading it back as a scenario's `policy` gives the same `Policy`.
  public static func render(_ policy: Policy) -> String {
    let knobs = PolicyKnob.all
    /// The members of the level `prefix`, one a line at `indent`, a group as a nested object.
    func members(_ prefix: String, _ indent: String) -> String {
      (PolicyLevel.byPrefix[prefix]?.keys ?? []).map { name, knob in
        let key = indent + JSONText.quoted(name) + ": "
        if let knob { return key + knobs[knob].render(policy) }
        return key + "{\n" + members(prefix + name + ".", indent + "  ") + "\n" + indent + "}"
      }.joined(separator: ",\n")
    }
    return "{\n" + members("", "  ") + "\n}"
  }

  /// The value of one knob as JSON text (`2.0`, `"1m"`, `null`), or nil for an unknown name.
  public static func value(of name: String, in policy: Policy) -> String? {
    PolicyKnob.all.first { $0.name == name }?.render(policy)
  }

  /// Applies `name=value`, as sweeps and the command line write it: `rateLimiter.growth=3`.
  public static func apply(_ assignment: String, to policy: inout Policy) throws(PolicySettingError) {
    guard let eq = assignment.firstIndex(of: "=") else {
      throw PolicySettingError("expected NAME=VALUE such as rateLimiter.growth=3, found '\(assignment)'")
    }
    try set(String(assignment[..<eq]), to: String(assignment[assignment.index(after: eq)...]), in: &policy)
  }

  /// Sets one knob from text. The text is read as JSON when it is JSON (`3`, `true`, `null`,
  /// `["wifi"]`), otherwise as a string (`2m`, `"2m"`), then checked like the `policy` section.
  public static func set(_ name: String, to text: String, in policy: inout Policy) throws(PolicySettingError)
  {
    guard let knob = PolicyKnob.all.first(where: { $0.name == name }) else {
      let hint =
        Suggestion.didYouMean(name, among: knobNames).map { "did you mean '\($0)'?" }
        ?? "knobs are \(knobNames.joined(separator: ", "))"
      throw PolicySettingError("unknown policy knob '\(name)'; \(hint)")
    }
    let value: JSONValue
    do {
      value = try JSONParser.parse(Array(text.utf8))
    } catch {
      value = JSONValue(.string(text), at: JSONPosition(line: 1, column: 1))
    }
    let context = DecodeContext(file: "")
    var updated = policy
    knob.apply(&updated, value, name, context)
    if let problem = context.problems.first {
      // A list knob given a bare word: show the JSON list syntax with the knob's default.
      let listHint =
        knob.expected.hasPrefix("an array") && value.array == nil
        ? "; write a list as JSON, such as \(name)=\(knob.render(.defaults).replacingOccurrences(of: " ", with: ""))"
        : ""
      throw PolicySettingError("\(name): \(problem.message)\(listHint)")
    }
    policy = updated
  }
}
