import Foundation
import ScenarioKit
import Testing

/// `bgsim calibrate` as a user runs it: files written, what it prints, exit codes 0, 1 and 2.
@Suite struct CalibrateCommandTests {
  static func world(policy: String = "{}", episodes: Int = 4) -> String {
    """
    {"name": "chain", "seed": 2, "duration": "10d",
     "device": {"network": [{"at": "0s", "interface": "wifi", "down": "40Mbps"}], "power": [{"at": "0s", "charging": true}]},
     "server": {"resources": [{"url": "https://pod.example.com/ep-{n}.mp3", "count": \(episodes), "size": "50MB"}]},
     "policy": \(policy),
     "app": {"sessions": [{"identifier": "Episodes", "kind": "background"}],
             "behavior": {"on": [{"event": "didFinishDownloading", "task": "ep-*", "firstNumber": 2, "times": \(episodes - 1),
               "do": [{"do": "download", "session": "Episodes", "url": "https://pod.example.com/ep-{n}.mp3", "name": "ep-{n}"}]}]}},
     "timeline": [{"at": "0s", "do": "launch"},
                  {"at": "1s", "do": "download", "session": "Episodes", "url": "https://pod.example.com/ep-1.mp3", "name": "ep-1"},
                  {"at": "2s", "do": "background"}]}
    """
  }

  /// A sandbox with `world.json` and `observed.jsonl`, the trace of the world run with growth 3.
  static func sandbox() throws -> BgsimSandbox {
    let sandbox = try BgsimSandbox()
    try sandbox.write("world.json", world())
    try sandbox.write("hidden.json", world(policy: #"{"rateLimiter": {"growth": 3.0}}"#))
    let run = try sandbox.run(["run", "hidden.json", "--trace-out", "observed.jsonl", "--quiet"])
    #expect(run.status == 0)
    return sandbox
  }

  @Test func aFitWritesItsFilesAndExitsZero() throws {
    let sandbox = try Self.sandbox()
    defer { sandbox.remove() }
    let result = try sandbox.run([
      "calibrate", "world.json", "--observed", "observed.jsonl", "--param", "rateLimiter.growth=1.5..5",
      "--param", "backgroundRunTime=1s..8s", "--jobs", "2", "--out", "fit",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("rateLimiter.growth  3.0"))
    #expect(result.stdout.contains("backgroundRunTime   unidentified"))
    #expect(result.stdout.contains("residual +0.000 s"))
    #expect(result.stdout.contains("wrote fit/{fit.json,residuals.csv,observed-vs-simulated.svg}"))
    let dir = sandbox.directory.appendingPathComponent("fit")
    let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
    #expect(names == ["fit.json", "observed-vs-simulated.svg", "residuals.csv"])
    let fit = try String(contentsOf: dir.appendingPathComponent("fit.json"), encoding: .utf8)
    #expect(fit.contains("\"policy\": {\n    \"rateLimiter\": {\"growth\": 3.0}\n  }"))
    #expect(fit.contains("\"status\": \"unidentified\""))
    // The policy section is a scenario's policy as it stands.
    let policyText = fit[fit.range(of: "\"policy\": ")!.upperBound...].prefix { $0 != "]" }
    let section = String(policyText[..<policyText.range(of: "\n  },")!.lowerBound]) + "\n  }"
    let policy = try ScenarioLoader.loadPolicy(data: Array(section.utf8), file: "policy.json")
    #expect(policy.rateLimiter.growth == 3.0)
    let csv = try String(contentsOf: dir.appendingPathComponent("residuals.csv"), encoding: .utf8)
    #expect(
      csv.hasPrefix(
        "seed,event,kind,subject,observedSeconds,simulatedSeconds,residualSeconds\n2,1,app.launch,"))
    let svg = try String(contentsOf: dir.appendingPathComponent("observed-vs-simulated.svg"), encoding: .utf8)
    #expect(svg.hasPrefix("<svg") && svg.contains("<circle"))
  }

  @Test func aLogWithoutAWorldBuildsTheWorldFromTheLog() throws {
    let sandbox = try Self.sandbox()
    defer { sandbox.remove() }
    let result = try sandbox.run([
      "calibrate", "--observed", "observed.jsonl", "--param", "rateLimiter.growth=1.5..5", "--out", "fit",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("rateLimiter.growth  3.0"))
    let world = sandbox.directory.appendingPathComponent("fit/world.json")
    let check = try sandbox.run(["validate", world.path])
    #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
  }

  @Test func aLogNoCandidateCanProduceExitsOne() throws {
    let sandbox = try Self.sandbox()
    defer { sandbox.remove() }
    let log = try String(
      contentsOf: sandbox.directory.appendingPathComponent("observed.jsonl"), encoding: .utf8)
    try sandbox.write(
      "observed.jsonl",
      log
        + "{\"t\": 900000000000000, \"at\": \"10d10h\", \"kind\": \"delegate.didComplete\", \"task\": \"ep-9\"}\n"
    )
    let result = try sandbox.run([
      "calibrate", "world.json", "--observed", "observed.jsonl", "--param", "rateLimiter.growth=1.5..5",
      "--out", "fit",
    ])
    #expect(result.status == 1)
    #expect(result.stdout.contains("no candidate matches the log"))
    #expect(result.stdout.contains("delegate.didComplete ep-9"))
  }

  @Test(arguments: [
    (["--observed", "bad.jsonl", "--param", "rateLimiter.growth=1..3"], "bad.jsonl:2: not JSON"),
    (["--observed", "observed.jsonl", "--param", "rateLimiter.growth=3..1"], "the low end must be below"),
    (
      ["--observed", "observed.jsonl", "--param", "rateLimiter.grwth=1..3"],
      "did you mean 'rateLimiter.growth'"
    ),
    (
      ["--observed", "observed.jsonl", "--param", "rateLimiter.resetOnForeground=1..3"],
      "calibrate searches durations"
    ),
    (["--observed", "observed.jsonl", "--param", "rateLimiter.growth=2"], "--param expects KEY=LO..HI"),
    (
      ["--observed", "missing.jsonl", "--param", "rateLimiter.growth=1..3"],
      "cannot read the log 'missing.jsonl'"
    ),
    (["--param", "rateLimiter.growth=1..3"], "missing --observed"),
    (["--observed", ".", "--param", "rateLimiter.growth=1..3"], "the log: '.' is not a regular file"),
  ])
  func badInputExitsTwoWithAMessage(arguments: [String], message: String) throws {
    let sandbox = try Self.sandbox()
    defer { sandbox.remove() }
    try sandbox.write(
      "bad.jsonl", "{\"t\": 0, \"at\": \"0s\", \"kind\": \"app.launch\", \"reason\": \"user\"}\n{oops\n")
    let result = try sandbox.run(["calibrate", "world.json"] + arguments + ["--out", "fit"])
    #expect(result.status == 2)
    #expect(result.stderr.contains(message), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: sandbox.directory.appendingPathComponent("fit").path))
  }
}
