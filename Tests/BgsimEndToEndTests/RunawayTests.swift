import Foundation
import Testing

/// Runaways from small files (issue 15): each ends with exit 2 and a message naming what looped
/// and the option that raises the limit; redirect loops fail the task with -1007 as URLSession does.
@Suite struct RunawayTests {
  static func loop(latency: String, size: String) -> String {
    """
    {"name": "reaction-loop", "duration": "1d",
     "device": {"network": [{"at": "0s", "interface": "wifi", "down": "50Mbps", "up": "10Mbps", "latency": "\(latency)"}]},
     "server": {"resources": [{"url": "https://example.com/a.zip", "size": \(size)}]},
     "app": {"sessions": [{"identifier": "S"}],
             "behavior": {"on": [{"event": "didFinishDownloading",
                                  "do": [{"do": "download", "session": "S", "url": "https://example.com/a.zip",
                                          "name": "next-{n}"}]}]}},
     "timeline": [{"at": "0s", "do": "launch"},
                  {"at": "1s", "do": "download", "session": "S", "url": "https://example.com/a.zip", "name": "first"}]}
    """
  }

  static func redirects(_ resources: String) -> String {
    """
    {"name": "redirect-loop", "duration": "1d",
     "server": {"resources": [\(resources)]},
     "app": {"sessions": [{"identifier": "S"}]},
     "timeline": [{"at": "0s", "do": "launch"},
                  {"at": "1s", "do": "download", "session": "S", "url": "https://example.com/a", "name": "a"}],
     "expect": [{"task": "a", "error": "httpTooManyRedirects"},
                {"trace": "task.redirect task=a", "count": 16},
                {"trace": "task.failed task=a error=httpTooManyRedirects code=-1007", "count": 1}]}
    """
  }

  @Test func aReactionLoopWithoutLatencyIsALivelockNamingTheReaction() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try sandbox.write("loop.json", Self.loop(latency: "0s", size: "0"))
    let result = try sandbox.run(["run", "loop.json", "--quiet", "--max-events-per-instant", "3000"])
    #expect(result.status == 2)
    #expect(
      result.stderr
        == "loop.json: error: the run stopped: more than 3000 events happened at 1s without simulated time advancing "
        + "(a livelock); most frequent recent events: task.started task=next-* (334 times), "
        + "delegate.didComplete task=next-* (334 times), task.finished task=next-* (333 times); the reaction "
        + "app.behavior.on[0] (on didFinishDownloading) ran 750 times, starting new work each time: a loop "
        + "unless it has 'times'. If the scenario means it, raise the limit with --max-events-per-instant N\n"
    )
  }

  @Test func aReactionLoopThatAdvancesTimeRunsOutOfEvents() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try sandbox.write("loop.json", Self.loop(latency: "30ms", size: "\"1KB\""))
    let result = try sandbox.run(["run", "loop.json", "--quiet", "--max-events", "20000"])
    #expect(result.status == 2)
    #expect(result.stderr.hasPrefix("loop.json: error: the run stopped: the run passed 20000 events at "))
    #expect(result.stderr.contains("the reaction app.behavior.on[0] (on didFinishDownloading) ran "))
    #expect(result.stderr.hasSuffix("If the scenario means it, raise the limit with --max-events N\n"))
  }

  @Test func tooManyTasksIsABudgetToo() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try sandbox.write("loop.json", Self.loop(latency: "30ms", size: "\"1KB\""))
    let result = try sandbox.run(["run", "loop.json", "--quiet", "--max-tasks", "50"])
    #expect(result.status == 2)
    #expect(
      result.stderr.hasPrefix("loop.json: error: the run stopped: the run created more than 50 tasks by "))
    #expect(result.stderr.hasSuffix("raise the limit with --max-tasks N\n"))
  }

  @Test(arguments: [
    #"{"url": "https://example.com/a", "size": "1KB", "redirectTo": "https://example.com/b"}, "#
      + #"{"url": "https://example.com/b", "size": "1KB", "redirectTo": "https://example.com/a"}"#,
    #"{"url": "https://example.com/a", "size": "1KB", "redirectTo": "https://example.com/a"}"#,
  ])
  func aRedirectLoopFailsWithTooManyRedirects(_ resources: String) throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try sandbox.write("r.json", Self.redirects(resources))
    let result = try sandbox.run(["run", "r.json", "--quiet"])
    #expect(result.stderr == "")
    #expect(result.status == 0, "\(result.stdout)")
    #expect(result.stdout.hasSuffix("3 of 3 expectations hold; simulated 2.02s, 25 trace events\n"))
  }

  @Test func aBudgetOptionMustBeAPositiveNumber() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    let result = try sandbox.run(["run", "x.json", "--max-events", "-5"])
    #expect(result.status == 2)
    #expect(result.stderr.hasPrefix("bgsim: --max-events expects a positive number, found '-5'\n"))
  }
}
