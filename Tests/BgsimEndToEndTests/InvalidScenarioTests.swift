import Foundation
import Testing

/// One invalid scenario file and the exact messages `bgsim` must print for it.
struct InvalidScenarioCase: Sendable, CustomTestStringConvertible {
  var name: String
  var file = "s.json"
  var content: [UInt8]
  /// The full standard error, line by line.
  var messages: [String]

  init(_ name: String, file: String = "s.json", _ text: String, _ messages: String...) {
    self.init(name, file: file, bytes: Array(text.utf8), messages)
  }

  init(_ name: String, file: String = "s.json", bytes: [UInt8], _ messages: [String]) {
    self.name = name
    self.file = file
    self.content = bytes
    self.messages = messages
  }

  var testDescription: String { name }
}

/// Invalid scenarios run through the built binary: exact text (`FILE:LINE:COL: error: path: message`,
/// the form Xcode and editors jump from), exit code 2, never a crash.
@Suite struct InvalidScenarioTests {
  /// A session and a resource most cases can refer to.
  static let formatHint = "bgsim: the scenario format is described in docs/scenario-format.md"
  static let app = #""app": {"sessions": [{"identifier": "MySession"}]}"#
  static let server = #""server": {"resources": [{"url": "https://example.com/book.zip", "size": "5MB"}]}"#

  static let cases: [InvalidScenarioCase] = [
    .init(
      "wrong type", #"{"name": "x", "seed": "42"}"#,
      #"s.json:1:23: error: seed: expected a seed, an integer from 0 to 18446744073709551615, found the string "42""#
    ),
    .init(
      "seed past the largest unsigned 64-bit integer", #"{"name": "x", "seed": 18446744073709551616}"#,
      "s.json:1:23: error: seed: 18446744073709551616 is out of range; expected a seed, an integer from 0 "
        + "to 18446744073709551615"),
    .init(
      "negative seed", #"{"name": "x", "seed": -1}"#,
      "s.json:1:23: error: seed: -1 is out of range; expected a seed, an integer from 0 to 18446744073709551615"
    ),
    .init(
      "missing key", #"{"description": "no name"}"#,
      "s.json:1:1: error: missing required key 'name' (the scenario's name, a non-empty string)"),
    .init(
      "missing key in a list entry", #"{"name": "x", "device": {"network": [{"at": "0s"}]}}"#,
      "s.json:1:38: error: device.network[0]: missing required key 'interface' (one of wifi, cellular, wired, none)"
    ),
    .init(
      "unknown key", #"{"name": "x", "duraton": "1h"}"#,
      "s.json:1:15: error: unknown key 'duraton'; did you mean 'duration'?"),
    .init(
      "unknown key without suggestion", #"{"name": "x", "device": {"network": [], "colour": "red"}}"#,
      "s.json:1:41: error: device: unknown key 'colour'; expected network, power, backgroundAppRefresh, iosVersion "
        + #"(keys starting with "x-" are ignored)"#),
    .init(
      "negative duration", #"{"name": "x", "duration": "-1h"}"#,
      #"s.json:1:27: error: duration: negative duration "-1h"; a duration must be 0 or more"#),
    .init(
      "unknown unit", #"{"name": "x", "duration": "2hours"}"#,
      #"s.json:1:27: error: duration: unknown unit 'hours' in duration "2hours"; units are ns, us, ms, s, m, h, d"#
    ),
    .init(
      "unknown action", file: "Scenarios/x.json",
      #"{"name": "x", "timeline": [{"at": "0s", "do": "launch"}, {"at": "1m", "do": "background"},"#
        + #"{"at": "2m", "do": "launch"}, {"at": "3m", "do": "background"}, {"at": "4m", "do": "forcequit"}]}"#,
      "Scenarios/x.json:1:174: error: timeline[4].do: unknown action 'forcequit'; did you mean 'forceQuit'?"),
    .init(
      "ftp URL",
      #"{"name": "x", \#(app), \#(server), "timeline": [{"at": "0s", "do": "download", "#
        + #""session": "MySession", "url": "ftp://example.com/book.zip", "name": "book"}]}"#,
      "s.json:1:225: error: timeline[0].url: 'ftp://example.com/book.zip' is not an http or https URL; "
        + "the system rejects other schemes when the task is created"),
    .init(
      "URL not on the server",
      #"{"name": "x", \#(app), \#(server), "timeline": [{"at": "0s", "do": "download", "#
        + #""session": "MySession", "url": "https://example.com/bok.zip", "name": "book"}]}"#,
      "s.json:1:225: error: timeline[0].url: no resource 'https://example.com/bok.zip' in server.resources; "
        + "did you mean 'https://example.com/book.zip'?"),
    .init(
      "malformed JSON", "{\n  \"name\": \"x\",\n  \"seed\": 1\n  \"duration\": \"1h\"\n}\n",
      #"s.json:4:3: error: expected ',' or '}' after object member, found '"'"#),
    .init("empty file", "", "s.json: error: the file is empty; expected a JSON object describing a scenario"),
    .init(
      "non-UTF-8 bytes", bytes: Array(#"{"name": "caf"#.utf8) + [0xE9] + Array(#""}"#.utf8),
      ["s.json: error: the file is not valid UTF-8: byte 0xE9 at byte offset 13; save it as UTF-8"]),
    .init(
      "10 MB file",
      bytes: Array(#"{"name": "big", "description": ""#.utf8)
        + [UInt8](repeating: 0x61, count: 10 * 1024 * 1024)
        + Array(#""}"#.utf8),
      ["s.json: error: the file is 10485794 bytes; scenario files are limited to 8388608 bytes (8 MiB)"]),
    .init(
      "arrays nested 100,000 deep",
      bytes: [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
        + [UInt8](repeating: UInt8(ascii: "]"), count: 100_000),
      [
        "s.json:1:129: error: arrays and objects nested more than 128 deep; "
          + "a scenario never needs that many levels"
      ]),
    .init(
      "unknown session",
      #"{"name": "x", \#(app), \#(server), "timeline": [{"at": "0s", "do": "download", "#
        + #""session": "Mysession", "url": "https://example.com/book.zip", "name": "book"}]}"#,
      "s.json:1:205: error: timeline[0].session: unknown session 'Mysession'; did you mean 'MySession'?"),
    .init(
      "unknown task in expect",
      #"{"name": "x", \#(app), \#(server), "timeline": [{"at": "0s", "do": "download", "#
        + #""session": "MySession", "url": "https://example.com/book.zip", "name": "book"}], "#
        + #""expect": [{"task": "bok", "state": "completed"}]}"#,
      "s.json:1:295: error: expect[0].task: no download, upload or resumeFromData creates a task named 'bok'; did you mean 'book'?"
    ),
    // A name written with other bytes than the one declared (a decomposed "é") names another
    // session or task, as on a device: the message says why two identical-looking names differ.
    .init(
      "session in another Unicode form",
      #"{"name": "x", "app": {"sessions": [{"identifier": "caf\#u{E9}"}]}, \#(server), "timeline": ["#
        + #"{"at": "0s", "do": "download", "session": "cafe\#u{301}", "url": "https://example.com/book.zip", "name": "b"}]}"#,
      #"s.json:1:200: error: timeline[0].session: unknown session 'cafe\#u{301}'; it has the letters of 'caf\#u{E9}' "#
        + #"but other bytes: written here as 'cafe<U+0301>', there as 'caf<U+00E9>' (two Unicode normalization forms); "#
        + "they are compared byte for byte, as on a device, so write both the same way"),
    .init(
      "task in another Unicode form",
      #"{"name": "x", \#(app), \#(server), "timeline": [{"at": "0s", "do": "download", "#
        + #""session": "MySession", "url": "https://example.com/book.zip", "name": "\#u{E9}"}, "#
        + #"{"at": "1s", "do": "cancel", "task": "e\#u{301}"}]}"#,
      #"s.json:1:308: error: timeline[1].task: no download, upload or resumeFromData creates a task named 'e\#u{301}'; "#
        + #"it has the letters of '\#u{E9}' but other bytes: written here as 'e<U+0301>', there as '<U+00E9>' (two Unicode normalization forms); "#
        + "they are compared byte for byte, as on a device, so write both the same way"),
    .init(
      "background task in another Unicode form",
      #"{"name": "x", "timeline": [{"at": "0s", "do": "launch"}, {"at": "0s", "do": "beginBackgroundTask", "name": "\#u{E9}"}, "#
        + #"{"at": "1s", "do": "endBackgroundTask", "name": "e\#u{301}"}]}"#,
      #"s.json:1:162: error: timeline[2].name: no beginBackgroundTask opens a background task named 'e\#u{301}'; "#
        + #"it has the letters of '\#u{E9}' but other bytes: written here as 'e<U+0301>', there as '<U+00E9>' (two Unicode normalization forms); "#
        + "they are compared byte for byte, as on a device, so write both the same way"),
    .init(
      "URL in another Unicode form",
      #"{"name": "x", \#(app), "server": {"resources": [{"url": "https://example.com/caf\#u{E9}", "size": "5MB"}]}, "#
        + #""timeline": [{"at": "0s", "do": "download", "session": "MySession", "url": "https://example.com/cafe\#u{301}", "name": "b"}]}"#,
      #"s.json:1:221: error: timeline[0].url: no resource 'https://example.com/cafe\#u{301}' in server.resources; "#
        + #"it has the letters of 'https://example.com/caf\#u{E9}' but other bytes: written here as "#
        + #"'https://example.com/cafe<U+0301>', there as 'https://example.com/caf<U+00E9>' (two Unicode normalization forms); "#
        + "they are compared byte for byte, as on a device, so write both the same way"),
    .init(
      "unknown task in cancel", #"{"name": "x", "timeline": [{"at": "0s", "do": "cancel", "task": "book"}]}"#,
      "s.json:1:65: error: timeline[0].task: no download, upload or resumeFromData creates a task named 'book'"
    ),
    .init(
      "reboot",
      #"{"name": "x", "app": {"behavior": {"on": [{"event": "didLaunch", "do": [{"do": "reboot"}]}]}}}"#,
      "s.json:1:80: error: app.behavior.on[0].do[0].do: 'reboot' is an action of the user or the system; "
        + "a reaction can only do download, upload, cancel, suspend, resume, resumeFromData, getAllTasks, invalidate, "
        + "beginBackgroundTask, endBackgroundTask, dataTask, submitContinuedProcessing, reportContinuedProgress, "
        + "completeContinuedProcessing"
    ),
    .init(
      "multiple problems at once",
      """
      {
        "name": "x",
        "duration": "1 day",
        "device": {"network": [{"at": "0s", "interface": "wifii", "down": 50}]},
        \(app),
        "timeline": [
          {"at": "+5s", "do": "launch"},
          {"at": "1m", "do": "getAllTasks", "session": "Other"}
        ],
        "expect": [{"app": "wakes", "equals": 1.5}]
      }
      """,
      #"s.json:3:15: error: duration: duration "1 day" contains spaces; write it without them, like "30s""#,
      "s.json:4:52: error: device.network[0].interface: unknown interface 'wifii'; did you mean 'wifi'?",
      #"s.json:4:69: error: device.network[0].down: expected a rate like "20Mbps", "500kbps" or "2MB/s", found the number 50; "#
        + #"write the unit in a string, such as "50Mbps""#,
      #"s.json:7:12: error: timeline[0].at: relative instant "+5s" is not allowed here; write a time since the scenario's start "#
        + #"such as "5s" (only earliestBegin accepts "+...")"#,
      "s.json:8:50: error: timeline[1].session: unknown session 'Other'; declared sessions are MySession",
      "s.json:10:41: error: expect[0].equals: expected a count of 0 or more, found the number 1.5"),
  ]

  @Test(arguments: cases)
  func validateReportsExactly(_ c: InvalidScenarioCase) throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try sandbox.write(c.file, c.content)
    let clock = ContinuousClock()
    let start = clock.now
    let result = try sandbox.run(["validate", c.file])
    #expect(clock.now - start < .seconds(10), "bad input must fail fast, never hang")
    #expect(result.stderr == (c.messages + [Self.formatHint]).map { $0 + "\n" }.joined())
    #expect(result.stdout == "")
    #expect(result.status == 2)
  }

  @Test(
    arguments: cases.filter {
      ["unknown action", "malformed JSON", "reboot", "multiple problems at once"].contains($0.name)
    })
  func runReportsTheSameAndDoesNotRun(_ c: InvalidScenarioCase) throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try sandbox.write(c.file, c.content)
    let result = try sandbox.run(["run", c.file, "--quiet"])
    #expect(result.stderr == (c.messages + [Self.formatHint]).map { $0 + "\n" }.joined())
    #expect(result.status == 2)
  }

  @Test func validateChecksEveryFileAndReportsEach() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try sandbox.write("good.json", EndToEndFixtures.fullScenario)
    try sandbox.write("bad.json", #"{"name": ""}"#)
    let result = try sandbox.run(["validate", "good.json", "bad.json", "missing.json"])
    #expect(result.stdout == "good.json: ok\n")
    #expect(
      result.stderr
        == "bad.json:1:10: error: name: the scenario's name must not be empty\nmissing.json: error: no such file\n"
        + Self.formatHint + "\n")
    #expect(result.status == 2)
  }
}
