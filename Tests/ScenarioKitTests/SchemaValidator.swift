import Foundation
import ScenarioKit

/// A validator for the part of JSON Schema draft 2020-12 that `docs/scenario.schema.json`
/// uses: `$ref` into `$defs`, `type`, `properties`, `required`, `patternProperties`,
/// `additionalProperties: false`, `enum`, `const`, `anyOf`, `items`, `minItems`, `maxItems`,
/// `minimum`, `maximum`, `minLength`, `pattern`. Any other keyword is reported as unsupported,
/// so the schema cannot quietly grow past what is checked.
struct SchemaValidator {
  let root: JSONValue

  static let supported: Set<String> = [
    "$schema", "$id", "$defs", "$ref", "title", "description", "type", "properties", "required",
    "patternProperties", "additionalProperties", "enum", "const", "anyOf", "items", "minItems", "maxItems",
    "minimum", "maximum", "minLength", "pattern",
  ]

  /// Problems as `path: message`; empty when `value` is valid.
  func validate(_ value: JSONValue) -> [String] { check(value, root, "$") }

  private func check(_ value: JSONValue, _ schema: JSONValue, _ path: String) -> [String] {
    guard let members = schema.members else { return ["\(path): the schema is not an object"] }
    var problems: [String] = []
    for member in members where !Self.supported.contains(member.key) {
      problems.append("\(path): unsupported schema keyword '\(member.key)'")
    }
    if let ref = schema["$ref"]?.string {
      guard ref.hasPrefix("#/$defs/"), let target = root["$defs"]?[String(ref.dropFirst(8))] else {
        return problems + ["\(path): unresolvable $ref '\(ref)'"]
      }
      problems += check(value, target, path)
    }
    if let type = schema["type"]?.string, !Self.has(type: type, value) {
      return problems + ["\(path): expected \(type), found \(value.summary)"]
    }
    if let allowed = schema["enum"]?.array, !allowed.contains(where: { Self.equal($0, value) }) {
      problems.append("\(path): \(value.summary) is not one of the allowed values")
    }
    if let constant = schema["const"], !Self.equal(constant, value) {
      problems.append("\(path): expected \(constant.summary), found \(value.summary)")
    }
    if let choices = schema["anyOf"]?.array {
      if !choices.contains(where: { check(value, $0, path).isEmpty }) {
        problems.append("\(path): matches none of the \(choices.count) alternatives")
      }
    }
    if let n = value.number?.double {
      if let min = schema["minimum"]?.number?.double, n < min { problems.append("\(path): below \(min)") }
      if let max = schema["maximum"]?.number?.double, n > max { problems.append("\(path): above \(max)") }
    }
    if let s = value.string {
      if let min = schema["minLength"]?.number?.int64, s.count < min { problems.append("\(path): too short") }
      if let pattern = schema["pattern"]?.string,
        s.range(of: pattern, options: .regularExpression) == nil
      {
        problems.append("\(path): \(value.summary) does not match \(pattern)")
      }
    }
    if let items = value.array {
      if let min = schema["minItems"]?.number?.int64, items.count < min {
        problems.append("\(path): too few items")
      }
      if let max = schema["maxItems"]?.number?.int64, items.count > max {
        problems.append("\(path): too many items")
      }
      if let itemSchema = schema["items"] {
        for (i, item) in items.enumerated() { problems += check(item, itemSchema, "\(path)[\(i)]") }
      }
    }
    if let object = value.members {
      for key in schema["required"]?.array?.compactMap(\.string) ?? [] where value[key] == nil {
        problems.append("\(path): missing required '\(key)'")
      }
      let properties = schema["properties"]
      let patterns = schema["patternProperties"]?.members ?? []
      for member in object {
        let childPath = "\(path).\(member.key)"
        if let propertySchema = properties?[member.key] {
          problems += check(member.value, propertySchema, childPath)
        } else if let match = patterns.first(where: {
          member.key.range(of: $0.key, options: .regularExpression) != nil
        }) {
          problems += check(member.value, match.value, childPath)
        } else if schema["additionalProperties"]?.bool == false {
          problems.append("\(path): unknown key '\(member.key)'")
        }
      }
    }
    return problems
  }

  static func has(type: String, _ value: JSONValue) -> Bool {
    switch (type, value.content) {
    case ("string", .string), ("boolean", .bool), ("object", .object), ("array", .array), ("null", .null):
      return true
    case ("number", .number): return true
    case ("integer", .number(let n)): return n.isInteger
    default: return false
    }
  }

  static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a.content, b.content) {
    case (.string(let x), .string(let y)): return x == y
    case (.bool(let x), .bool(let y)): return x == y
    case (.number(let x), .number(let y)): return x.double == y.double
    case (.null, .null): return true
    default: return false
    }
  }
}
