import Foundation
import Testing

/// `bgsim check` and `bgsim run` end to end: output lines, the summary line and exit codes on
/// passing, failing and invalid scenarios, and the golden-trace diff.
@Suite("bgsim check and run, end to end")
struct CheckCommandTests {
  /// A small scenario: one 500 KB download on a 4 Mbps link, finishing at 1.06 s.
  static func scenario(name: String, expectBy: String) -> String {
    """
    {"name": "\(name)", "duration": "1h",
     "device": {"network": [{"at": "0s", "interface": "wifi", "down": "4Mbps", "up": "1Mbps", "latency": "30ms"}]},
     "server": {"resources": [{"url": "https://example.com/a", "size": "500KB", "etag": "v1"}]},
     "app": {"sessions": [{"identifier": "S", "kind": "background"}]},
     "timeline": [{"at": "0s", "do": "launch"},
                  {"at": "0s", "do": "download", "session": "S", "url": "https://example.com/a", "name": "a"}],
     "expect": [{"task": "a", "state": "completed", "by": "\(expectBy)"}]}
    """
  }

  @Test("all passing: one ok line each, the summary, exit 0")
  func passing() throws {
    let box = try BgsimSandbox()
    defer { box.remove() }
    try box.write("s/one.json", Self.scenario(name: "one", expectBy: "2s"))
    try box.write("s/two.json", Self.scenario(name: "two", expectBy: "1.06s"))
    let result = try box.run(["check", "s"])
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 3)
    #expect(lines[0].hasPrefix("ok    s/one.json  (simulated 1.06s, wall "))
    #expect(lines[1].hasPrefix("ok    s/two.json  (simulated 1.06s, wall "))
    #expect(lines[2] == "2 passed, 0 failed")
  }

  @Test("a failed expectation: FAIL with what was expected and what happened, exit 1")
  func failing() throws {
    let box = try BgsimSandbox()
    defer { box.remove() }
    try box.write("s/late.json", Self.scenario(name: "late", expectBy: "1s"))
    try box.write("s/fine.json", Self.scenario(name: "fine", expectBy: "2s"))
    let result = try box.run(["check", "s"])
    #expect(result.status == 1)
    #expect(result.stdout.contains("FAIL  s/late.json  (simulated 1.06s"))
    #expect(result.stdout.contains("\ns/late.json:7:13: error: expect[0]: task 'a' completed by 1s\n"))
    #expect(result.stdout.contains("instead: task 'a' is completed since 1.06s"))
    #expect(result.stdout.contains("1.06s  task      finished a session=S status=200 bytes=500000"))
    #expect(result.stdout.hasSuffix("1 passed, 1 failed\n"))
  }

  @Test("an invalid scenario: its problems under a FAIL line, exit 2")
  func invalid() throws {
    let box = try BgsimSandbox()
    defer { box.remove() }
    try box.write("s/bad.json", #"{"name": "bad", "duration": "-5s"}"#)
    try box.write("s/fine.json", Self.scenario(name: "fine", expectBy: "2s"))
    let result = try box.run(["check", "s"])
    #expect(result.status == 2)
    #expect(
      result.stdout.contains("FAIL  s/bad.json  (invalid scenario)\ns/bad.json:1:29: error: duration: ")
    )
    #expect(result.stdout.hasSuffix("1 passed, 1 failed\n"))
  }

  @Test("golden traces: --update-golden writes them, a changed trace prints the first divergence")
  func golden() throws {
    let box = try BgsimSandbox()
    defer { box.remove() }
    try box.write("s/g.json", Self.scenario(name: "g", expectBy: "2s"))
    let update = try box.run(["check", "--update-golden", "s"])
    #expect(update.status == 0)
    let goldenPath = box.directory.appendingPathComponent("s/g.trace.jsonl").path
    let golden = try String(contentsOfFile: goldenPath, encoding: .utf8)
    #expect(golden.contains(#"{"t": 1060000000, "at": "1.06s", "kind": "task.finished", "task": "a""#))
    #expect(try box.run(["check", "s"]).status == 0)

    // Make the link twice as fast: the golden trace no longer matches.
    try box.write(
      "s/g.json", Self.scenario(name: "g", expectBy: "2s").replacingOccurrences(of: "4Mbps", with: "8Mbps"))
    let result = try box.run(["check", "s"])
    #expect(result.status == 1)
    #expect(result.stdout.contains("golden trace differs at line 1 (simulated time 0s):"))
    #expect(
      result.stdout.contains(
        #"  - {"t": 0, "at": "0s", "kind": "network.change", "interface": "wifi", "down": "4Mbps""#))
    #expect(
      result.stdout.contains(
        #"  + {"t": 0, "at": "0s", "kind": "network.change", "interface": "wifi", "down": "8Mbps""#))
  }

  @Test(
    "run prints the timeline and the verdicts; --trace-out writes JSON Lines; exit 1 on a failed expectation")
  func run() throws {
    let box = try BgsimSandbox()
    defer { box.remove() }
    try box.write("late.json", Self.scenario(name: "late", expectBy: "1s"))
    let result = try box.run(["run", "late.json", "--trace-out", "t.jsonl"])
    #expect(result.status == 1)
    #expect(result.stdout.contains("\n1.06s  task      finished a session=S status=200 bytes=500000\n"))
    #expect(result.stdout.contains("0 of 1 expectations hold; simulated 1.06s"))
    let trace = try String(
      contentsOfFile: box.directory.appendingPathComponent("t.jsonl").path, encoding: .utf8)
    #expect(trace.split(separator: "\n").allSatisfy { $0.hasPrefix(#"{"t": "#) })
    let quiet = try box.run(["run", "--quiet", "late.json"])
    #expect(!quiet.stdout.contains("network"))
  }

  @Test("run names the timeline entry an app action could not be played at, exit 2")
  func appNotRunning() throws {
    let box = try BgsimSandbox()
    defer { box.remove() }
    try box.write(
      "x.json",
      Self.scenario(name: "x", expectBy: "2s").replacingOccurrences(
        of: #"{"at": "0s", "do": "launch"},"#, with: ""))
    let result = try box.run(["run", "--quiet", "x.json"])
    #expect(result.status == 2)
    #expect(
      result.stderr
        == "x.json:6:15: error: timeline[0]: the app is notRunning at 0s, so it cannot perform 'download'; "
        + "add a 'launch' entry before it\n")
  }

  @Test("report writes a page per scenario and an index into --out")
  func report() throws {
    let box = try BgsimSandbox()
    defer { box.remove() }
    try box.write("s/one.json", Self.scenario(name: "one", expectBy: "2s"))
    let result = try box.run(["report", "s", "--out", "out"])
    #expect(result.status == 0)
    #expect(result.stdout == "out/one.html\nout/index.html\n")
    let page = try String(
      contentsOfFile: box.directory.appendingPathComponent("out/one.html").path, encoding: .utf8)
    #expect(page.contains("data-lane=\"app\""))
    #expect(page.contains("data-task=\"a\""))
  }
}
