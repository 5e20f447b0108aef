import ScenarioKit
import Testing

/// The parser's contract: positions, key order, integers apart from floats, and clear errors.
@Suite struct JSONParserTests {
  private func parse(_ text: String) throws(JSONParseError) -> JSONValue {
    try JSONParser.parse(Array(text.utf8))
  }

  @Test func keepsKeyOrderAndPositions() throws {
    let value = try parse("{\n  \"b\": 1,\n  \"a\": [true, null, \"x\"]\n}")
    let members = try #require(value.members)
    #expect(members.map(\.key) == ["b", "a"])
    #expect(members[0].keyPosition == JSONPosition(line: 2, column: 3))
    #expect(members[1].value.position == JSONPosition(line: 3, column: 8))
    #expect(members[1].value.array?[2].position == JSONPosition(line: 3, column: 21))
    #expect(value.position == JSONPosition(line: 1, column: 1))
  }

  @Test func columnsCountCharactersNotBytes() throws {
    let value = try parse("{\"é\": \"ü\", \"k\": 1}")
    #expect(value["k"]?.position == JSONPosition(line: 1, column: 17))
  }

  @Test(arguments: [
    ("0", true), ("-12", true), ("9223372036854775807", true), ("1.5", false), ("1e3", false),
    ("-0.0", false),
    ("2E-2", false),
  ])
  func numbersKeepTheirTextAndKind(text: String, isInteger: Bool) throws {
    let number = try #require(try parse(text).number)
    #expect(number.text == text)
    #expect(number.isInteger == isInteger)
  }

  @Test func integerOutOfInt64RangeHasNoInt64Value() throws {
    let number = try #require(try parse("9223372036854775808").number)
    #expect(number.isInteger && number.int64 == nil)
  }

  @Test(arguments: [
    ("\"a\\nb\"", "a\nb"), ("\"\\u00e9\"", "é"), ("\"\\ud83d\\ude00\"", "😀"), ("\"\\/\\\\\\\"\"", "/\\\""),
    ("\"tab\\there\"", "tab\there"),
  ])
  func stringEscapes(text: String, expected: String) throws {
    #expect(try parse(text).string == expected)
  }

  @Test(arguments: [
    ("{\"a\": 1 \"b\": 2}", "expected ',' or '}' after object member, found '\"' at line 1, column 9"),
    ("[1 2]", "expected ',' or ']' after array element, found '2' at line 1, column 4"),
    ("[1,]", "expected a value after ',' (JSON allows no trailing comma) at line 1, column 4"),
    ("{\"a\": 1,}", "expected a key after ',' (JSON allows no trailing comma) at line 1, column 9"),
    ("{a: 1}", "expected a string key in double quotes, found 'a' at line 1, column 2"),
    ("{\"a\" 1}", "expected ':' after object key \"a\", found '1' at line 1, column 6"),
    ("{\"a\": 1, \"a\": 2}", "duplicate key \"a\" at line 1, column 10"),
    ("[tru]", "expected a value, found an unknown word at line 1, column 2"),
    ("[01]", "numbers cannot have leading zeros at line 1, column 3"),
    ("[1.]", "expected a digit after '.' in number at line 1, column 4"),
    ("[-]", "expected a digit after '-' at line 1, column 3"),
    ("[1e]", "expected a digit in the exponent of a number at line 1, column 4"),
    ("[30s]", "found 's' right after a number; units go inside a string, as in \"30s\" at line 1, column 4"),
    ("\"abc", "unterminated string: expected '\"' before the end of file at line 1, column 5"),
    ("\"a\nb\"", "unterminated string: expected '\"' before the end of the line at line 1, column 3"),
    (
      "\"\\x\"",
      "invalid escape '\\x' in string; valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX at line 1, column 3"
    ),
    ("\"\\ud800\"", "unpaired surrogate \\uD800 in string at line 1, column 8"),
    ("\"\\u12\"", "expected 4 hex digits after \\u at line 1, column 6"),
    ("{} {}", "expected nothing after the JSON value, found '{' at line 1, column 4"),
    ("[", "expected a value, found end of file at line 1, column 2"),
    (
      "{\n  \"a\": [1,\n   2\n  }\n", "expected ',' or ']' after array element, found '}' at line 4, column 3"
    ),
    ("'a'", "expected a value, found ''' at line 1, column 1"),
    // Characters that cannot appear there are named, with their code points.
    (
      "{\"a\": 1,\u{01}}",
      "expected a string key in double quotes, found the control character U+0001 at line 1, column 9"
    ),
    (
      "{} \u{E9}",
      "expected nothing after the JSON value, found '\u{E9}' (U+00E9) at line 1, column 4"
    ),
    ("[\u{1F600}]", "expected a value, found '\u{1F600}' (U+1F600) at line 1, column 2"),
    ("[\u{7F}]", "expected a value, found the control character U+007F at line 1, column 2"),
  ])
  func syntaxErrors(text: String, message: String) {
    #expect(performing: { try parse(text) }, throws: { ($0 as? JSONParseError)?.description == message })
  }

  @Test(arguments: ["", "   \n\t "])
  func emptyDocuments(text: String) {
    #expect(throws: JSONParseError(.empty)) { try parse(text) }
  }

  @Test(
    arguments: [
      ([0x7B, 0xFF, 0x7D], 1, 0xFF), ([0x22, 0xC3, 0x28, 0x22], 1, 0xC3), ([0x22, 0xE2, 0x82], 1, 0xE2),
      ([0x22, 0xED, 0xA0, 0x80, 0x22], 1, 0xED), ([0xC0, 0xAF], 0, 0xC0),
    ] as [([UInt8], Int, UInt8)])
  func invalidUTF8ReportsTheByteOffset(bytes: [UInt8], offset: Int, byte: UInt8) {
    #expect(throws: JSONParseError(.invalidUTF8(byte: byte, offset: offset))) { try JSONParser.parse(bytes) }
  }

  @Test func byteOrderMarkIsSkipped() throws {
    #expect(try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("{\"a\": 1}".utf8))["a"]?.number?.text == "1")
  }

  @Test func deepNestingIsAnErrorNotACrash() {
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    #expect(throws: JSONParseError(.tooDeep(limit: 128, JSONPosition(line: 1, column: 129)))) {
      try parse(deep)
    }
    let ok = String(repeating: "[", count: 128) + String(repeating: "]", count: 128)
    #expect(throws: Never.self) { try parse(ok) }
  }

  /// Small objects compare a new key with each member's, large ones look it up: both find a
  /// repeated key, and neither takes another Unicode normalization form of a key for it.
  @Test(arguments: [3, 16, 17, 40, 2_000])
  func duplicateKeysInObjectsOfEverySize(members: Int) throws {
    let keys = (0..<members).map { "\"k\($0)\": \($0)" }
    let repeated = "{" + (keys + ["\"k\(members / 2)\": 0"]).joined(separator: ", ") + "}"
    let error = try #require(throws: JSONParseError.self) { try parse(repeated) }
    #expect("\(error)".hasPrefix("duplicate key \"k\(members / 2)\""))
    let spellings = "{" + (keys + ["\"caf\u{E9}\": 1", "\"cafe\u{301}\": 2"]).joined(separator: ", ") + "}"
    #expect(try parse(spellings).members?.count == members + 2)
    let allowed = try JSONParser.parse(Array(repeated.utf8), allowsDuplicateKeys: true)
    #expect(allowed.members?.count == members + 1)
  }

  /// A string's plain bytes are taken at once; an escape after them, and the columns after
  /// text beyond ASCII, come out as they did byte by byte.
  @Test func plainStringsThenEscapes() throws {
    #expect(try parse("\"plain text then\\nan escape\"").string == "plain text then\nan escape")
    #expect(try parse("\"\\u00e9t\u{E9}\"").string == "\u{E9}t\u{E9}")
    let value = try parse("{\"日本\": \"ü😀x\", \"k\": \"a\\tb\", \"z\": 1}")
    #expect(value["k"]?.string == "a\tb")
    #expect(value["k"]?.position == JSONPosition(line: 1, column: 20))
    #expect(value["z"]?.position == JSONPosition(line: 1, column: 33))
  }

  @Test func largeArraysParse() throws {
    let text = "[" + Array(repeating: "{\"a\": [1, 2.5, \"s\"]}", count: 20_000).joined(separator: ",") + "]"
    #expect(try parse(text).array?.count == 20_000)
  }
}
