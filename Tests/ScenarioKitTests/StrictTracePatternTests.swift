import Foundation
import ScenarioKit
import Testing

/// Trace patterns compare text, so a value written as the scenario writes it (`bytes=1MB`,
/// `delay=60s`) or a key given twice could never match: the loader refuses both and names the
/// canonical form (issue 27, item 7).
@Suite("Strict trace patterns")
struct StrictTracePatternTests {
  static func scenario(_ pattern: String, count: Int = 1) -> String {
    """
    {"name": "p", "app": {"sessions": [{"identifier": "S"}]},
     "server": {"resources": [{"url": "https://example.com/a", "size": "1MB"}]},
     "timeline": [{"at": "0s", "do": "launch"},
                  {"at": "1s", "do": "download", "session": "S", "url": "https://example.com/a", "name": "a"}],
     "expect": [{"trace": "\(pattern)", "count": \(count)}]}
    """
  }

  @Test(
    "a value in the scenario's literal form is refused with the trace's form",
    arguments: [
      (
        "task.finished task=a bytes=1MB",
        "s.json: expect[0].trace: bytes=1MB never matches: the trace writes sizes in bytes, so write bytes=1000000"
      ),
      (
        "task.finished task=a bytes=01000000",
        "s.json: expect[0].trace: bytes=01000000 never matches: the trace writes bytes=1000000"
      ),
      (
        "ratelimiter.wake delay=60s",
        "s.json: expect[0].trace: delay=60s never matches: the trace writes durations in their shortest form, so write delay=1m"
      ),
      (
        "delegate.didWriteData totalBytesWritten=lots",
        "s.json: expect[0].trace: totalBytesWritten=lots never matches: the trace writes totalBytesWritten as a whole number of bytes, such as totalBytesWritten=1000000"
      ),
    ])
  func literalRefused(_ pattern: String, _ message: String) {
    let first = loaderProblems(Self.scenario(pattern)).first
    #expect(first?.hasPrefix(message) == true, "\(first ?? "loaded")")
  }

  @Test("the canonical form, and a wildcard, load and match")
  func canonicalMatches() throws {
    for pattern in [
      "task.finished task=a bytes=1000000", "task.finished task=a bytes=1*", "ratelimiter.wake delay=1m",
    ] {
      #expect(loaderProblems(Self.scenario(pattern, count: pattern.hasPrefix("rate") ? 0 : 1)) == [])
    }
    let loaded = try loadScenario(Self.scenario("task.finished task=a bytes=1000000"))
    let result = ScenarioRunner.run(loaded)
    #expect(result.expectations.allSatisfy { $0.passed })
  }

  @Test("a key given twice is refused, even with count 0")
  func duplicateKey() {
    for count in [0, 1] {
      let first = loaderProblems(Self.scenario("task.started task=a task=b", count: count)).first
      #expect(
        first?.hasPrefix(
          "s.json: expect[0].trace: key 'task' appears twice; an event has one value for each key, so split the pattern"
        ) == true, "\(first ?? "loaded")")
    }
  }
}
