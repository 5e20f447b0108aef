/// Text from a scenario or the file system made safe to print on a terminal or in a log.
///
/// Names, descriptions, URLs and task names are user data: a newline in a description could
/// print a fake result line, and an escape sequence could rewrite the terminal. Every such
/// string goes through `escape` before it is printed, as the JSON trace escapes it.
public enum TerminalText {
  /// `text` with control characters, backslashes and invisible direction overrides written as
  /// Swift-style escapes: `\n`, `\t`, `\r`, `\\`, `\u{1B}`. Printable text is unchanged.
  public static func escape(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: needsEscape) else { return text }
    var out = ""
    out.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
      guard needsEscape(scalar) else {
        out.unicodeScalars.append(scalar)
        continue
      }
      switch scalar {
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\\": out += "\\\\"
      default: out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      }
    }
    return out
  }

  /// `escape(text)`, cut to its first `limit` characters with a note of how much was left out,
  /// so that a message quoting a 7 MB value stays one short line.
  public static func bounded(_ text: String, limit: Int = 80) -> String {
    escape(shortened(text, limit: limit))
  }

  /// `text` cut to its first `limit` characters followed by `... (N more bytes)`, not escaped:
  /// for messages that are escaped as a whole when printed.
  public static func shortened(_ text: String, limit: Int = 80) -> String {
    var count = 0
    var end = text.startIndex
    while end < text.endIndex, count < limit {
      end = text.index(after: end)
      count += 1
    }
    if end == text.endIndex { return text }
    let rest = text.utf8.count - text[..<end].utf8.count
    return String(text[..<end]) + "... (\(rest) more bytes)"
  }

  /// C0 and C1 controls, DEL, the backslash, line and paragraph separators, and the
  /// bidirectional embeddings, overrides and isolates that reorder what a terminal shows.
  static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0..<0x20, 0x7F...0x9F, 0x5C: return true
    case 0x2028, 0x2029, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
    default: return false
    }
  }
}
