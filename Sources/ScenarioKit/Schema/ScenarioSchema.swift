import TransferEngine

/// The JSON Schema (draft 2020-12) of scenario files, for editors' completion and checking.
///
/// Built from the loader's own lists (actions, enumerations, policy knobs, top-level keys) so
/// the names cannot drift; a test checks every object's properties against the keys the loader
/// accepts and validates every shipped scenario against it. The loader stays the authority:
/// it also checks references, ranges and units the schema only sketches.
public enum ScenarioSchema {
  /// Where the schema is published in the repository, for a scenario's `"$schema"`.
  public static let id = "https://github.com/bgsim/bgsim/raw/main/docs/scenario.schema.json"

  /// The schema as JSON text, ending with a newline.
  public static var text: String { root.render() + "\n" }

  static var root: SchemaNode {
    .object([
      ("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
      ("$id", .string(id)),
      ("title", .string("bgsim scenario")),
      (
        "description",
        .string(
          "A scenario for bgsim, the simulator of the iOS background transfer system. "
            + "See docs/scenario-format.md.")
      ),
      ("type", .string("object")),
      ("required", .array([.string("name")])),
      (
        "properties",
        .object([
          (
            "$schema",
            described("The JSON Schema of this file, for editors.", .object([("type", .string("string"))]))
          ),
          ("name", described("The scenario's name, shown in reports.", nonEmptyString)),
          ("description", described("One line that says what the scenario shows.", string)),
          (
            "seed",
            described(
              "The random seed (an integer from 0 to 18446744073709551615).",
              .object([("type", .string("integer")), ("minimum", .int(0))]))
          ),
          (
            "startsAt",
            described(
              "The local date and time the run starts; instants may then be times of day like \"22:00\".",
              .object([
                ("type", .string("string")),
                ("pattern", .string("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2})?$")),
              ]))
          ),
          (
            "duration",
            described("How long the run may last in simulated time (default 7d).", ref("duration"))
          ),
          ("device", ref("device")), ("server", ref("server")), ("policy", ref("policy")),
          ("app", ref("app")),
          ("timeline", .object([("type", .string("array")), ("items", ref("timelineEntry"))])),
          ("expect", .object([("type", .string("array")), ("items", ref("expectation"))])),
          ("random", ref("random")),
        ])
      ),
      ("patternProperties", notes),
      ("additionalProperties", .bool(false)),
      ("$defs", .object(definitions)),
    ])
  }

  // MARK: Building blocks

  static let string = SchemaNode.object([("type", .string("string"))])
  static let nonEmptyString = SchemaNode.object([("type", .string("string")), ("minLength", .int(1))])
  static let boolean = SchemaNode.object([("type", .string("boolean"))])
  /// `x-...` keys hold the user's notes and are ignored.
  static let notes = SchemaNode.object([("^x-", .object([]))])

  static func ref(_ name: String) -> SchemaNode { .object([("$ref", .string("#/$defs/\(name)"))]) }

  static func described(_ text: String, _ node: SchemaNode) -> SchemaNode {
    guard case .object(let members) = node else { return node }
    return .object([("description", .string(text))] + members)
  }

  static func enumeration(_ names: [String]) -> SchemaNode {
    .object([("type", .string("string")), ("enum", .array(names.map(SchemaNode.string)))])
  }

  static func constant(_ name: String) -> SchemaNode { .object([("const", .string(name))]) }

  static func integer(_ range: ClosedRange<Int>) -> SchemaNode {
    .object([
      ("type", .string("integer")), ("minimum", .int(range.lowerBound)), ("maximum", .int(range.upperBound)),
    ])
  }

  static func number(_ low: String, _ high: String) -> SchemaNode {
    .object([("type", .string("number")), ("minimum", .number(low)), ("maximum", .number(high))])
  }

  static func nullable(_ node: SchemaNode) -> SchemaNode {
    .object([("anyOf", .array([node, .object([("type", .string("null"))])]))])
  }

  static func array(_ items: SchemaNode) -> SchemaNode {
    .object([("type", .string("array")), ("items", items)])
  }

  /// A closed object: these properties (and `x-...` notes), nothing else.
  static func object(
    _ properties: [(String, SchemaNode)], required: [String] = [], description: String? = nil
  ) -> SchemaNode {
    var members: [(String, SchemaNode)] = []
    if let description { members.append(("description", .string(description))) }
    members.append(("type", .string("object")))
    if !required.isEmpty { members.append(("required", .array(required.map(SchemaNode.string)))) }
    members.append(("properties", .object(properties)))
    members.append(("patternProperties", notes))
    members.append(("additionalProperties", .bool(false)))
    return .object(members)
  }

  static func names<E: RawRepresentable & CaseIterable>(_ type: E.Type) -> [String]
  where E.RawValue == String {
    type.allCases.map(\.rawValue)
  }
}
