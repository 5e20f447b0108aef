import SimKernel

/// A JSON value built in code and written with a fixed layout, for the scenario JSON Schema.
/// Objects keep their members in the order given, so the output is byte-for-byte stable.
indirect enum SchemaNode {
  case string(String)
  case number(String)
  case bool(Bool)
  case array([SchemaNode])
  case object([(String, SchemaNode)])

  static func int(_ n: Int) -> SchemaNode { .number(String(n)) }

  /// Pretty-printed with two-space indents; short arrays of scalars stay on one line.
  func render(indent: String = "") -> String {
    switch self {
    case .string(let s): return JSONText.quoted(s)
    case .number(let n): return n
    case .bool(let b): return b ? "true" : "false"
    case .array(let items):
      if items.isEmpty { return "[]" }
      let scalars = items.allSatisfy {
        if case .object = $0 { return false }
        if case .array = $0 { return false }
        return true
      }
      if scalars {
        let line = "[" + items.map { $0.render() }.joined(separator: ", ") + "]"
        if line.count + indent.count <= 100 { return line }
      }
      let inner = indent + "  "
      return "[\n" + items.map { inner + $0.render(indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
    case .object(let members):
      if members.isEmpty { return "{}" }
      let inner = indent + "  "
      let lines = members.map { inner + JSONText.quoted($0.0) + ": " + $0.1.render(indent: inner) }
      return "{\n" + lines.joined(separator: ",\n") + "\n\(indent)}"
    }
  }
}
