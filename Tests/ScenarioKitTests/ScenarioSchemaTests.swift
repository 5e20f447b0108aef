import Foundation
import ScenarioKit
import Testing

/// The JSON Schema of scenarios: the shipped copy is what the code prints, every shipped
/// scenario validates, broken ones do not, and its objects accept exactly the loader's keys.
@Suite struct ScenarioSchemaTests {
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent()

  static func validator() throws -> SchemaValidator {
    SchemaValidator(root: try JSONParser.parse(Array(ScenarioSchema.text.utf8)))
  }

  static func json(_ text: String) throws -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

  @Test func shippedCopyIsTheGeneratedSchema() throws {
    let copy = try String(
      contentsOf: Self.packageRoot.appendingPathComponent("docs/scenario.schema.json"), encoding: .utf8)
    #expect(
      copy == ScenarioSchema.text, "regenerate with: swift run bgsim schema > docs/scenario.schema.json")
  }

  @Test func everyShippedScenarioValidates() throws {
    let validator = try Self.validator()
    let folder = Self.packageRoot.appendingPathComponent("Scenarios")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
      $0.hasSuffix(".json")
    }
    .sorted()
    #expect(files.count >= 31)
    for file in files {
      let data = try Data(contentsOf: folder.appendingPathComponent(file))
      let problems = validator.validate(try JSONParser.parse(Array(data)))
      #expect(problems.isEmpty, "\(file): \(problems.prefix(3))")
    }
  }

  @Test(arguments: [
    #"{"description": "no name"}"#,
    #"{"name": "x", "duraton": "1h"}"#,
    #"{"name": "x", "duration": "1 day"}"#,
    #"{"name": "x", "device": {"network": [{"at": "0s", "interface": "wifii"}]}}"#,
    #"{"name": "x", "device": {"network": [{"at": "0s", "interface": "wifi", "down": "20Mbs"}]}}"#,
    #"{"name": "x", "timeline": [{"at": "1m", "do": "forcequit"}]}"#,
    #"{"name": "x", "timeline": [{"at": "1m", "do": "download", "session": "S", "url": "u"}]}"#,
    #"{"name": "x", "expect": [{"lint": "noSuchRule"}]}"#,
    #"{"name": "x", "expect": [{"task": "a", "state": "done"}]}"#,
    #"{"name": "x", "policy": {"rateLimiter": {"growht": 2}}}"#,
    #"{"name": "x", "app": {"sessions": [{"identifier": "S", "kind": "ephemeral"}]}}"#,
  ])
  func brokenScenariosDoNotValidate(_ text: String) throws {
    #expect(!(try Self.validator().validate(Self.json(text)).isEmpty))
  }

  @Test func notesAndSchemaKeyAreAccepted() throws {
    let text =
      #"{"$schema": "../docs/scenario.schema.json", "name": "x", "x-note": 1, "device": {"x-why": "y"}}"#
    #expect(try Self.validator().validate(Self.json(text)).isEmpty)
    #expect(throws: Never.self) { try ScenarioLoader.load(data: Array(text.utf8), file: "s.json") }
  }

  /// The keys the loader accepts at `path` in a scenario, read from its unknown-key message.
  static func loaderKeys(_ scenario: String) -> [String] {
    do {
      _ = try ScenarioLoader.load(data: Array(scenario.utf8), file: "s.json")
      return []
    } catch {
      for problem in error.problems {
        if let range = problem.message.range(of: "unknown key 'zzqq'; expected ") {
          let list = problem.message[range.upperBound...].prefix { $0 != "(" }
          return list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
      }
      return []
    }
  }

  /// The property names of the schema object reached by `steps` (`properties`/`$defs`/`items`).
  static func schemaKeys(_ steps: [String]) throws -> [String] {
    var node = try json(ScenarioSchema.text)
    for step in steps {
      if let index = Int(step), let array = node.array {
        node = array[index]
      } else if let next = node[step] {
        node = next
      } else if let ref = node["$ref"]?.string,
        let target = try json(ScenarioSchema.text)["$defs"]?[String(ref.dropFirst(8))],
        let next = target[step]
      {
        node = next
      } else {
        return []
      }
    }
    if let ref = node["$ref"]?.string,
      let target = try json(ScenarioSchema.text)["$defs"]?[String(ref.dropFirst(8))]
    {
      node = target
    }
    return node["properties"]?.members?.map(\.key) ?? []
  }

  /// Each object of the schema lists exactly the keys the loader reads there (in any order).
  @Test(
    arguments: [
      (#"{"name": "x", "zzqq": 1}"#, [String]()),
      (#"{"name": "x", "device": {"zzqq": 1}}"#, ["$defs", "device"]),
      (
        #"{"name": "x", "device": {"network": [{"at": "0s", "interface": "wifi", "zzqq": 1}]}}"#,
        ["$defs", "device", "properties", "network", "items"]
      ),
      (
        #"{"name": "x", "device": {"power": [{"at": "0s", "zzqq": 1}]}}"#,
        ["$defs", "device", "properties", "power", "items"]
      ),
      (#"{"name": "x", "server": {"zzqq": 1}}"#, ["$defs", "server"]),
      (
        #"{"name": "x", "server": {"resources": [{"url": "https://e.com/a", "size": 1, "zzqq": 1}]}}"#,
        ["$defs", "server", "properties", "resources", "items"]
      ),
      (
        #"{"name": "x", "server": {"changes": [{"at": "1s", "url": "https://e.com/a", "zzqq": 1}]}}"#,
        ["$defs", "server", "properties", "changes", "items"]
      ),
      (#"{"name": "x", "policy": {"zzqq": 1}}"#, ["$defs", "policy"]),
      (
        #"{"name": "x", "policy": {"rateLimiter": {"zzqq": 1}}}"#,
        ["$defs", "policy", "properties", "rateLimiter"]
      ),
      (#"{"name": "x", "policy": {"retry": {"zzqq": 1}}}"#, ["$defs", "policy", "properties", "retry"]),
      (#"{"name": "x", "app": {"zzqq": 1}}"#, ["$defs", "app"]),
      (
        #"{"name": "x", "app": {"sessions": [{"identifier": "S", "zzqq": 1}]}}"#,
        ["$defs", "app", "properties", "sessions", "items"]
      ),
      (#"{"name": "x", "app": {"behavior": {"zzqq": 1}}}"#, ["$defs", "app", "properties", "behavior"]),
      (#"{"name": "x", "random": {"zzqq": 1}}"#, ["$defs", "random"]),
    ] as [(String, [String])])
  func schemaObjectsHaveTheLoadersKeys(_ scenario: String, _ steps: [String]) throws {
    let loader = Self.loaderKeys(scenario)
    let schema =
      try steps.isEmpty
      ? (Self.json(ScenarioSchema.text)["properties"]?.members?.map(\.key) ?? []) : Self.schemaKeys(steps)
    #expect(!loader.isEmpty)
    #expect(Set(loader) == Set(schema), "loader: \(loader); schema: \(schema)")
  }
}
