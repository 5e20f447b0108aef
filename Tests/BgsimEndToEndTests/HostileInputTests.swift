import Foundation
import Testing

/// Typos and out-of-range values that used to pass silently or trap later (issue 15): each is
/// refused at load with exit 2 and one message naming the place, or warned about by `validate`.
@Suite struct HostileInputTests {
  static let head = """
    "name": "x", "server": {"resources": [{"url": "https://example.com/a.zip", "size": "1MB"}]},
    "app": {"sessions": [{"identifier": "S"}]}
    """
  static let download = #"{"at": "0s", "do": "download", "session": "S", "url": "https://example.com/a.zip""#

  static func scenario(_ rest: String) -> String { "{\(head), \(rest)}" }

  static let refused: [InvalidScenarioCase] = [
    .init(
      "misspelt kind", scenario(#""expect": [{"trace": "task.finshed task=a", "count": 0}]"#),
      "s.json: expect[0].trace: unknown event kind 'task.finshed'; did you mean 'task.finished'? "
        + #"(in trace pattern "task.finshed task=a")"#),
    .init(
      "misspelt delegate kind",
      scenario(#""expect": [{"trace": "delegate.didFinishDownload task=a", "count": 0}]"#),
      "s.json: expect[0].trace: unknown event kind 'delegate.didFinishDownload'; did you mean "
        + #"'delegate.didFinishDownloading'? (in trace pattern "delegate.didFinishDownload task=a")"#),
    .init(
      "misspelt key", scenario(#""expect": [{"trace": ["task.finished tsak=a"]}]"#),
      "s.json: expect[0].trace[0]: task.finished events have no key 'tsak'; did you mean 'task'? "
        + #"(in trace pattern "task.finished tsak=a")"#),
    .init(
      "key no kind of a wildcard has", scenario(#""expect": [{"trace": "app.* colour=red", "count": 0}]"#),
      "s.json: expect[0].trace: 'app.*' events have no key 'colour'; they have keys callback, duration, name, path, reason, session, task "
        + #"(in trace pattern "app.* colour=red")"#),
    .init(
      "two tasks of one name",
      scenario(
        #""timeline": [{"at": "0s", "do": "launch"}, \#(download), "name": "a"}, \#(download), "name": "a"}]"#
      ),
      "s.json: timeline[2].name: a task named 'a' is already created at timeline[1].name; give each task its own name"
    ),
    .init(
      "count with one name for all",
      scenario(#""timeline": [{"at": "0s", "do": "launch"}, \#(download), "name": "a", "count": 3}]"#),
      "s.json: timeline[1].name: 'count' creates 3 tasks, which would all be named 'a'; put '{n}' in the name "
        + #"(like "a-{n}") so each has its own"#),
    .init(
      "ten million tasks by count",
      scenario(
        #""timeline": [{"at": "0s", "do": "launch"}, "#
          + (0..<3).map { #"\#(download), "name": "t\#($0)-{n}", "count": 40000}"# }.joined(separator: ", ")
          + "]"),
      "s.json: timeline[3].count: this entry brings the file's tasks with 'count' on timeline entries to 120000; "
        + "at most 100000 are allowed in one file"),
    .init(
      "a size that would overflow",
      #"{"name": "x", "server": {"resources": [{"url": "https://example.com/a.zip", "size": 9223372036854775296}]}}"#,
      "s.json: server.resources[0].size: size 9223372036854775296 is too large; sizes are at most 1024GiB "
        + "(1099511627776 bytes)"),
    .init(
      "a 2e18-byte download",
      #"{"name": "x", "server": {"resources": [{"url": "https://example.com/a.zip", "size": "2000000000GB"}]}}"#,
      #"s.json: server.resources[0].size: size "2000000000GB" is too large; sizes are at most 1024GiB "#
        + "(1099511627776 bytes)"),
    .init(
      "a reaction that does nothing",
      scenario(#""timeline": [], "app": {"behavior": {"on": [{"event": "didComplete", "do": []}]}}"#)
        .replacingOccurrences(of: #""app": {"sessions": [{"identifier": "S"}]}, "#, with: ""),
      "s.json: app.behavior.on[0].do: the list of actions is empty, so the reaction would do nothing; "
        + "give at least one action, or remove the reaction"),
    .init(
      "a duration of centuries", #"{"name": "x", "duration": "40000d"}"#,
      #"s.json: duration: duration "40000d" is too large; durations are at most 3650d (about 10 years)"#),
    .init(
      "a rate beyond 1 Tbps",
      #"{"name": "x", "device": {"network": [{"at": "0s", "interface": "wifi", "down": "2Tbps"}]}}"#,
      #"s.json: device.network[0].down: unknown unit 'Tbps' in rate "2Tbps"; units are bps, kbps, Mbps, Gbps, "#
        + "B/s, KB/s, MB/s, GB/s, KiB/s, MiB/s, GiB/s"),
    .init(
      "a rate of 2000 Gbps",
      #"{"name": "x", "device": {"network": [{"at": "0s", "interface": "wifi", "down": "2000Gbps"}]}}"#,
      #"s.json: device.network[0].down: rate "2000Gbps" is too large; rates are at most 1000Gbps"#),
  ]

  @Test(arguments: refused)
  func refusedWithExitTwo(_ testCase: InvalidScenarioCase) throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try sandbox.write(testCase.file, testCase.content)
    let result = try sandbox.run(["validate", testCase.file])
    #expect(result.status == 2)
    #expect(result.stdout == "")
    #expect(Self.located(result.stderr) == testCase.messages.map { $0 + "\n" }.joined() + Self.formatHint)
  }

  /// The line `validate` ends its problems with.
  static let formatHint = "bgsim: the scenario format is described in docs/scenario-format.md\n"

  /// `s.json:2:66: error: expect[0].trace: ...` read as `s.json: expect[0].trace: ...`: the
  /// cases name the file and the JSON path; the line and column are the CI formats' business.
  static func located(_ stderr: String) -> String {
    stderr.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
      guard let marker = line.range(of: ": error: ") else { return String(line) }
      let file = line[..<marker.lowerBound].split(separator: ":").first.map(String.init) ?? ""
      return file + ": " + line[marker.upperBound...]
    }.joined(separator: "\n")
  }

  @Test func nfcAndNfdSpellingsOfAKeyAreDistinct() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try sandbox.write("s.json", "{\"name\": \"x\", \"x-caf\u{E9}\": 1, \"x-cafe\u{301}\": 2}")
    let result = try sandbox.run(["validate", "s.json"])
    #expect(result.stderr == "")
    #expect(result.status == 0)
  }

  @Test func aHugeKeyIsQuotedByItsPrefixOnly() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    let key = String(repeating: "k", count: 7_000_000)
    try sandbox.write("s.json", "{\"name\": \"x\", \"\(key)\": 1}")
    let result = try sandbox.run(["validate", "s.json"])
    #expect(result.status == 2)
    #expect(
      Self.located(result.stderr)
        == "s.json: unknown key '\(String(repeating: "k", count: 80))... (6999920 more bytes)'; expected $schema, name, "
        + "description, startsAt, seed, duration, device, server, policy, app, timeline, expect, random "
        + "(keys starting with \"x-\" are ignored)\n" + Self.formatHint)
  }

  @Test func validateWarnsWhenMaxDelayIsBelowFirstDelay() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try sandbox.write(
      "s.json", #"{"name": "x", "policy": {"rateLimiter": {"firstDelay": "10m", "maxDelay": "1m"}}}"#)
    let result = try sandbox.run(["validate", "s.json"])
    #expect(result.status == 0)
    #expect(result.stdout == "s.json: ok\n")
    #expect(
      result.stderr
        == "s.json: policy.rateLimiter.maxDelay: warning: maxDelay (1m) is below firstDelay (10m), so every "
        + "delay is cut to 1m; did you swap them?\n")
  }

  @Test func checkDoesNotBlockOnAFIFONamedLikeAScenario() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try FileManager.default.createDirectory(
      at: sandbox.directory.appendingPathComponent("dir"), withIntermediateDirectories: true)
    guard mkfifo(sandbox.directory.appendingPathComponent("dir/x.json").path, 0o644) == 0 else {
      print("skipped: cannot make a FIFO here")
      return
    }
    let result = try sandbox.run(["check", "dir"])
    #expect(result.status == 2)
    #expect(
      result.stdout
        == "FAIL  dir/x.json  (invalid scenario)\ndir/x.json: error: is not a regular file (a pipe, socket or "
        + "device); expected a scenario file (.json)\n0 passed, 1 failed\n")
  }

  @Test func benchShareRefusesABillionTransfers() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    let result = try sandbox.run(["bench", "share", "1000000000"])
    #expect(result.status == 2)
    #expect(
      result.stderr.hasPrefix(
        "bgsim: share takes one transfer count N from 1 to 1000000, found '1000000000'\n"))
  }
}
