/// The trace's text forms, written here because the recorder links nothing of bgsim: durations
/// as `SimDuration.formatted` writes them, JSON strings and numbers as `JSONText` does. The
/// recorder's tests compare these with bgsim's own traces.
enum RecorderText {
  /// `0s`, `250ms`, `1.5ms`, `30s`, `1h30m`, `2d3h0.5s` from nanoseconds.
  static func duration(_ nanoseconds: Int64) -> String {
    if nanoseconds == 0 { return "0s" }
    var n = nanoseconds.magnitude
    let sign = nanoseconds < 0 ? "-" : ""
    if n < 1_000_000_000 {
      if n % 1_000_000 == 0 { return sign + "\(n / 1_000_000)ms" }
      if n >= 1_000_000 { return sign + decimal(n, unit: 1_000_000) + "ms" }
      if n % 1_000 == 0 || n >= 1_000 { return sign + decimal(n, unit: 1_000) + "us" }
      return sign + "\(n)ns"
    }
    var text = sign
    let units: [(UInt64, String)] = [
      (86_400_000_000_000, "d"), (3_600_000_000_000, "h"), (60_000_000_000, "m"),
    ]
    for (size, name) in units where n >= size {
      text += "\(n / size)\(name)"
      n %= size
    }
    if n > 0 { text += decimal(n, unit: 1_000_000_000) + "s" }
    return text
  }

  static func decimal(_ value: UInt64, unit: UInt64) -> String {
    let whole = value / unit
    var frac = value % unit
    if frac == 0 { return "\(whole)" }
    var digits = ""
    var scale = unit / 10
    while frac > 0 && scale > 0 {
      digits += String(frac / scale)
      frac %= scale
      scale /= 10
    }
    return "\(whole).\(digits)"
  }

  static func quoted(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  static func number(_ d: Double) -> String {
    if !d.isFinite { return "null" }
    if d == d.rounded() && abs(d) < 1e15 { return String(Int64(d)) }
    return String(d)
  }
}
