/// Why a text is not JSON that the loader can read; `description` is the message shown to users.
public struct JSONParseError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What kind of problem, with where it is.
  public enum Kind: Hashable, Sendable {
    /// Not JSON: the message says what was expected at the position.
    case syntax(String, JSONPosition)
    /// A byte that cannot start or continue a UTF-8 sequence, at a 0-based byte offset.
    case invalidUTF8(byte: UInt8, offset: Int)
    /// Nothing but whitespace.
    case empty
    /// Arrays and objects nested deeper than the limit; refusing keeps parsing bounded.
    case tooDeep(limit: Int, JSONPosition)
  }

  /// What went wrong and where.
  public var kind: Kind

  /// An error of `kind`.
  public init(_ kind: Kind) { self.kind = kind }

  /// Where the problem is, when it has a line and column.
  public var position: JSONPosition? {
    switch kind {
    case .syntax(_, let p), .tooDeep(_, let p): return p
    case .invalidUTF8, .empty: return nil
    }
  }

  public var description: String {
    switch kind {
    case .syntax(let message, let position):
      return "\(message) at \(position)"
    case .invalidUTF8(let byte, let offset):
      let hex = String(byte, radix: 16, uppercase: true)
      return
        "the file is not valid UTF-8: byte 0x\(hex.count == 1 ? "0" + hex : hex) at byte offset \(offset); "
        + "save it as UTF-8"
    case .empty:
      return "the file is empty; expected a JSON object describing a scenario"
    case .tooDeep(let limit, let position):
      return "arrays and objects nested more than \(limit) deep at \(position); "
        + "a scenario never needs that many levels"
    }
  }
}
