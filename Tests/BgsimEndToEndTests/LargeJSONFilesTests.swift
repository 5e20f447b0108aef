import Foundation
import Testing

/// A JSON file larger than any scenario, below a folder `check` walks, is judged by its top-level
/// keys read in chunks: one of another kind is skipped with a note, as a small one is, and one
/// with a scenario's key fails as too large.
@Suite struct LargeJSONFilesTests {
  /// 9 MiB of padding: past the 8 MiB a scenario may have.
  static let padding = String(repeating: "ab\\\"{}[],:", count: 9 * 1024 * 1024 / 10 + 1)

  func check(_ files: [String: String]) throws -> BgsimResult {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try sandbox.write("d/ok.json", #"{"name": "ok"}"#)
    for (name, text) in files { try sandbox.write("d/\(name)", text) }
    return try sandbox.run(["check", "d"])
  }

  @Test func aLargeFileOfAnotherKindIsSkipped() throws {
    // Scenario keys nested, and in strings with escaped quotes and brackets, do not count.
    let lock = """
      {"lockfileVersion": 3, "packages": {"timeline": {"expect": "}{\\"name\\": 1"}},
       "padding": "\(Self.padding)", "list": [1, {"app": [true, null]}, -2.5e3], "count": 7}
      """
    let result = try check(["package-lock.json": lock])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasSuffix("1 passed, 0 failed\n"))
    #expect(
      result.stderr
        == "bgsim: note: skipped 'd/package-lock.json': not a scenario (no key of a scenario's top level, "
        + "such as \"name\" or \"timeline\")\n")
  }

  @Test func aLargeArrayOrJSONSchemaIsSkipped() throws {
    let result = try check([
      "array.json": "  [\"\(Self.padding)\", {\"timeline\": []}]",
      "schema.json": "{\"$schema\": \"https://json-schema.org/draft/2020-12/schema\", \"name\": \"s\", "
        + "\"pad\": \"\(Self.padding)\"}",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stderr
        == "bgsim: note: skipped 'd/array.json': not a scenario (the JSON is not an object)\n"
        + "bgsim: note: skipped 'd/schema.json': not a scenario (a JSON Schema)\n")
  }

  @Test func aLargeFileWithAScenarioKeyFailsAsTooLarge() throws {
    let result = try check(["big.json": "{\"x-notes\": \"\(Self.padding)\", \"timeline\": []}"])
    #expect(result.status == 2)
    #expect(result.stdout.contains("FAIL  d/big.json  (invalid scenario)"), "\(result.stdout)")
    #expect(result.stdout.contains("scenario files are limited to 8388608 bytes"), "\(result.stdout)")
  }
}
