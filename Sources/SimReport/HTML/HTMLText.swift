/// Escaping and number formatting shared by the HTML pages and their inline SVG.
///
/// Every piece of text that reaches a page goes through `escape`, because scenario names,
/// descriptions, URLs and lint messages are user data and may contain `<`, `&` or quotes.
enum HTMLText {
  /// Text safe both between tags and inside a double- or single-quoted attribute.
  static func escape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// An SVG coordinate with at most one decimal, so pages stay small and byte-identical across
  /// runs (`Double.description` would print long, noisy fractions).
  static func coordinate(_ value: Double) -> String {
    let tenths = (value * 10).rounded()
    let whole = Int64(tenths / 10)
    let frac = Int64(abs(tenths.truncatingRemainder(dividingBy: 10)))
    if frac == 0 { return String(whole) }
    let sign = (tenths < 0 && whole == 0) ? "-" : ""
    return "\(sign)\(whole).\(frac)"
  }

  /// The longest `fileSafe` name kept whole: with `.html` and a `-N` suffix it stays far below
  /// the 255 bytes file systems allow for one name.
  static let maxFileNameLength = 100

  /// A name usable as a file name and in a link without percent-encoding: letters, digits,
  /// `.`, `_` and `-` are kept, every other character becomes `-`. A name longer than
  /// `maxFileNameLength` keeps its first 80 characters followed by `-` and 16 hex digits of a
  /// hash of the whole name, so long names never make an invalid file name and stay distinct.
  static func fileSafe(_ name: String) -> String {
    var out = ""
    for scalar in name.unicodeScalars {
      let keep =
        (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z")
        || (scalar >= "0" && scalar <= "9") || scalar == "." || scalar == "_" || scalar == "-"
      out.unicodeScalars.append(keep ? scalar : "-")
    }
    if out.isEmpty || out.allSatisfy({ $0 == "." }) { return "scenario" }
    if out.count > maxFileNameLength {
      let hash = String(fnv1a(name), radix: 16)
      out = String(out.prefix(80)) + "-" + String(repeating: "0", count: 16 - hash.count) + hash
    }
    return out
  }

  /// 64-bit FNV-1a of the UTF-8 bytes: stable across runs and platforms, unlike `Hasher`.
  static func fnv1a(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return hash
  }
}
