import TransferEngine

/// The parts of `docs/scenario-format.md` that are generated from the code: the fields of every
/// section (from the schema, which a test ties to the loader), the actions, the expectation
/// forms, every name list, the policy defaults and the trace vocabulary. A test keeps the page's
/// generated blocks equal to these, so the reference cannot drift from what the loader accepts
/// and the engine writes.
public enum FormatReference {
  /// Each block's name and its Markdown text (without the surrounding markers).
  public static var blocks: [(name: String, text: String)] {
    [
      ("sections", sections), ("actions", actions), ("expectations", expectations), ("names", names),
      ("policy-defaults", "```json\n\(PolicyJSON.render(.defaults))\n```"), ("trace-kinds", traceKinds),
      ("wait-reasons", waitReasons),
    ]
  }

  /// `<!-- generated: NAME (...) -->`, the line that opens a block in the page.
  public static func openingMarker(_ name: String) -> String {
    "<!-- generated: \(name) (do not edit; BGSIM_UPDATE_DOCS=1 swift test --filter FormatReferenceTests) -->"
  }

  /// The line that closes a generated block.
  public static let closingMarker = "<!-- end of generated block -->"

  /// The page with every generated block replaced by the current text.
  public static func update(_ page: String) -> String {
    var out = page
    for (name, text) in blocks {
      let open = openingMarker(name)
      guard let start = out.range(of: open),
        let end = out.range(of: closingMarker, range: start.upperBound..<out.endIndex)
      else { continue }
      out.replaceSubrange(start.upperBound..<end.lowerBound, with: "\n" + text + "\n")
    }
    return out
  }

  // MARK: Blocks

  /// One table per object of the format: key, what it holds, required or not.
  static var sections: String {
    let objects: [(String, [String])] = [
      ("top level", []), ("device", ["device"]), ("server", ["server"]), ("app", ["app"]),
      ("device.network[]", ["device", "network", "items"]),
      ("device.power[]", ["device", "power", "items"]),
      ("server.resources[]", ["server", "resources", "items"]),
      ("server.changes[]", ["server", "changes", "items"]),
      ("server.faults[]", ["server", "faults", "items"]),
      ("app.sessions[]", ["app", "sessions", "items"]), ("app.behavior", ["app", "behavior"]),
      ("app.behavior.on[]", ["app", "behavior", "on", "items"]),
      ("app.extensions[]", ["app", "extensions", "items"]), ("random", ["random"]),
      ("random.network", ["random", "network"]), ("random.power", ["random", "power"]),
      ("random.terminations", ["random", "terminations"]),
    ]
    return objects.map { title, steps in
      let node = steps.isEmpty ? ScenarioSchema.root : object(at: steps)
      return "**\(title)**\n\n" + table(node)
    }.joined(separator: "\n\n")
  }

  static var actions: String {
    var rows = ["| action | required fields | optional fields |", "|---|---|---|"]
    for action in ActionName.allCases {
      let (fields, required) = ScenarioSchema.actionFields(action, timeline: true)
      let optional = fields.map(\.0).filter { !required.contains($0) }
      rows.append(
        "| `\(action.rawValue)` | \(codeList(required)) | \(codeList(optional)) |")
    }
    return rows.joined(separator: "\n")
  }

  static var expectations: String {
    var rows = ["| about | keys (required first) |", "|---|---|"]
    for form in ScenarioSchema.expectations {
      guard case .object(let members) = form else { continue }
      let required = strings(members.first { $0.0 == "required" }?.1)
      let keys = members.first { $0.0 == "properties" }.map { keysOf($0.1) } ?? []
      let optional = keys.filter { !required.contains($0) }
      rows.append(
        "| `\(required.first ?? "")` | \(codeList(required))"
          + (optional.isEmpty ? "" : "; optional \(codeList(optional))")
          + " |")
    }
    return rows.joined(separator: "\n")
  }

  static var names: String {
    let lists: [(String, [String])] = [
      ("`interface`", ScenarioSchema.names(InterfaceKind.self)),
      ("session `kind`", ScenarioSchema.names(SessionConfiguration.Kind.self)),
      ("`callsCompletionHandler`", ScenarioSchema.names(AppBehavior.CompletionHandlerTiming.self)),
      ("reaction `event`", ScenarioSchema.names(Reaction.Event.self)),
      ("upload `from`", ScenarioSchema.names(UploadSource.self)),
      ("fault `kind`", ScenarioSchema.names(FaultKind.self)),
      ("`discretionary.requires`", ScenarioSchema.names(DiscretionaryCondition.self)),
      ("expected task `state`", ScenarioSchema.names(ExpectedTaskState.self)),
      ("`app` counters", ScenarioSchema.names(AppCounter.self)),
      ("`error`", ExpectDecoding.errorNames), ("cancel `reason`", ExpectDecoding.cancelReasons),
      ("`lint` rules", ScenarioSchema.names(LintRule.self)),
    ]
    return lists.map { "- \($0.0): \(codeList($0.1))" }.joined(separator: "\n")
  }

  static var traceKinds: String {
    var rows = ["| kind | fields (in the order written) |", "|---|---|"]
    for kind in TraceKind.allCases {
      rows.append("| `\(kind.name)` | \(kind.fieldNames.isEmpty ? "none" : codeList(kind.fieldNames)) |")
    }
    return rows.joined(separator: "\n")
  }

  static var waitReasons: String { codeList(SimURLSessionTask.WaitReason.Kind.deferrable.map(\.rawValue)) }

  // MARK: Helpers

  static func codeList(_ names: [String]) -> String {
    names.isEmpty ? "none" : names.map { "`\($0)`" }.joined(separator: ", ")
  }

  /// The schema object reached from `$defs` through `steps`, following `$ref`s.
  static func object(at steps: [String]) -> SchemaNode {
    var node = resolve(member(ScenarioSchema.root, "$defs").flatMap { member($0, steps[0]) })
    for step in steps.dropFirst() {
      let next =
        step == "items" ? member(node, "items") : member(node, "properties").flatMap { member($0, step) }
      node = resolve(next)
    }
    return node
  }

  static func resolve(_ node: SchemaNode?) -> SchemaNode {
    guard let node else { return .object([]) }
    if let ref = member(node, "$ref"), case .string(let target) = ref,
      let defined = member(ScenarioSchema.root, "$defs").flatMap({ member($0, String(target.dropFirst(8))) })
    {
      return resolve(defined)
    }
    return node
  }

  static func member(_ node: SchemaNode, _ key: String) -> SchemaNode? {
    guard case .object(let members) = node else { return nil }
    return members.first { $0.0 == key }?.1
  }

  static func keysOf(_ node: SchemaNode) -> [String] {
    guard case .object(let members) = node else { return [] }
    return members.map(\.0)
  }

  static func strings(_ node: SchemaNode?) -> [String] {
    guard case .array(let items)? = node else { return [] }
    return items.compactMap {
      switch $0 {
      case .string(let s): return s
      case .number(let n): return n
      default: return nil
      }
    }
  }

  /// `| key | value | required |` rows for one schema object.
  static func table(_ node: SchemaNode) -> String {
    let required = strings(member(node, "required"))
    var rows = ["| key | value | |", "|---|---|---|"]
    guard case .object(let properties)? = member(node, "properties") else {
      return rows.joined(separator: "\n")
    }
    for (key, value) in properties {
      rows.append("| `\(key)` | \(describe(value)) | \(required.contains(key) ? "required" : "") |")
    }
    return rows.joined(separator: "\n")
  }

  /// A short description of a schema value: `duration`, `one of wifi, cellular`, `list of ...`.
  static func describe(_ node: SchemaNode) -> String {
    if case .string(let ref)? = member(node, "$ref") { return String(ref.dropFirst(8)) }
    if let values = member(node, "enum") { return "one of " + codeList(strings(values)) }
    // An object whose `anyOf` only says which keys it needs (a reaction) is still an object.
    if case .string("object")? = member(node, "type") { return "object (below)" }
    if case .array(let choices)? = member(node, "anyOf") {
      return choices.map(describe).joined(separator: " or ")
    }
    guard case .string(let type)? = member(node, "type") else { return "any" }
    switch type {
    case "array": return "list of " + (member(node, "items").map(describe) ?? "values")
    case "integer", "number":
      let low = member(node, "minimum").map { if case .number(let n) = $0 { return n } else { return "" } }
      let high = member(node, "maximum").map { if case .number(let n) = $0 { return n } else { return "" } }
      if let low, let high { return "\(type) \(low) to \(high)" }
      if let low { return "\(type) of \(low) or more" }
      return type
    case "object": return "object (below)"
    default: return type
    }
  }
}
