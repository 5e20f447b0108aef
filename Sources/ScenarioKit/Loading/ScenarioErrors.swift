import SafeOutput

/// One thing wrong with a scenario file, located by its JSON path.
public struct ScenarioProblem: Hashable, Sendable, CustomStringConvertible {
  /// What sort of problem, for callers that react differently (tests, editors).
  public enum Kind: Hashable, Sendable {
    /// The file cannot be read, is too large, empty, not UTF-8, or not JSON.
    case file
    /// A value of the wrong JSON type.
    case type
    /// A required key is missing.
    case missingKey
    /// A key the format does not have (usually a typo; the message names the closest).
    case unknownKey
    /// A value of the right type that is not allowed (negative duration, unknown unit, ...).
    case value
    /// A name or URL that refers to nothing declared in the scenario.
    case reference
    /// Part of the format a run cannot play (app actions with a Swift app installed).
    case unsupported
  }

  /// What sort of problem (a missing key, a bad value, a dangling reference, ...).
  public var kind: Kind
  /// The file as it was named to the loader.
  public var file: String
  /// The JSON path (`timeline[3].at`); empty when the problem concerns the whole file.
  public var path: String
  /// Where in the file, when known; used to list problems in file order.
  public var position: JSONPosition?
  /// What was found, what was expected, and how to fix it.
  public var message: String

  /// A problem at `path` in `file`.
  public init(kind: Kind, file: String, path: String, position: JSONPosition?, message: String) {
    self.kind = kind
    self.file = file
    self.path = path
    self.position = position
    self.message = message
  }

  /// The longest message printed whole; longer ones (which can only come from quoting a huge
  /// input) are cut, so one problem is always one short line.
  public static let maxMessageLength = 600

  /// The one-line message: `Scenarios/x.json: timeline[4].do: unknown action 'forcequit'; ...`.
  /// Control characters from the file are escaped (`TerminalText`) so a message cannot forge lines.
  public var description: String {
    let text = TerminalText.bounded(message, limit: Self.maxMessageLength)
    let where_ = TerminalText.bounded(file, limit: Self.maxMessageLength)
    return path.isEmpty
      ? "\(where_): \(text)"
      : "\(where_): \(TerminalText.bounded(path, limit: Self.maxMessageLength)): \(text)"
  }
}

/// Every problem found in a scenario file; thrown by `ScenarioLoader` so one run shows them all.
public struct ScenarioErrors: Error, Sendable, CustomStringConvertible {
  /// Every problem, in file order.
  public var problems: [ScenarioProblem]

  /// The exit code of `bgsim` for an invalid scenario.
  public static let exitCode: Int32 = 2

  /// The errors listing `problems`, all found in one file.
  public init(_ problems: [ScenarioProblem]) { self.problems = problems }

  /// One line per problem, in file order; what `bgsim` prints to standard error.
  public var lines: [String] { problems.map(\.description) }

  public var description: String { lines.joined(separator: "\n") }
}
