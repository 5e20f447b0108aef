import Foundation
import Testing

/// `bgsim sweep` and `bgsim sweep-merge` as a user runs them: the files of `--jobs 2` and of
/// shards merged must be byte for byte those of `--jobs 1`.
@Suite struct SweepCommandTests {
  static let scenario = #"""
    {
      "name": "chain",
      "seed": 3,
      "duration": "2d",
      "device": {"network": [{"at": "0s", "interface": "wifi", "down": "40Mbps"}],
                 "power": [{"at": "0s", "charging": true}]},
      "server": {"resources": [{"url": "https://e.com/1", "size": "60MB", "etag": "a"},
                               {"url": "https://e.com/2", "size": "60MB"}]},
      "app": {
        "sessions": [{"identifier": "S", "kind": "background", "allowsCellularAccess": false}],
        "behavior": {"on": [{"event": "didFinishDownloading", "task": "e1",
                             "do": [{"do": "download", "session": "S", "url": "https://e.com/2", "name": "e2"}]}]}
      },
      "random": {
        "network": {"on": {"interface": "wifi", "down": "40Mbps"}, "off": {"interface": "none"},
                    "onFor": {"exponential": "10m"}, "offFor": {"exponential": "5m"}},
        "terminations": {"every": {"exponential": "1h"}}
      },
      "timeline": [
        {"at": "0s", "do": "launch"},
        {"at": "1s", "do": "download", "session": "S", "url": "https://e.com/1", "name": "e1"},
        {"at": "5s", "do": "background"}
      ]
    }
    """#

  static let grid = [
    "--param", "rateLimiter.growth=1.5,2,4", "--param", "policy.rateLimiter.firstDelay=30s,2m", "--seeds",
    "1-6",
  ]

  /// `--param` for `count` knobs of 100 values each.
  static func knobs(_ count: Int) -> [String] {
    let values: String = (0..<100).map { (v: Int) -> String in String(v) }.joined(separator: ",")
    var arguments: [String] = []
    for k in 0..<count { arguments += ["--param", "k\(k)=" + values] }
    return arguments
  }

  static let wholeFiles = [
    "sweep.json", "runs.csv", "summary.csv", "summary.md", "chart-allDoneSeconds.svg", "chart-wakes.svg",
  ]

  func files(_ sandbox: BgsimSandbox, _ directory: String) throws -> [String: Data] {
    let url = sandbox.directory.appendingPathComponent(directory)
    var out: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: url.path) {
      out[name] = try Data(contentsOf: url.appendingPathComponent(name))
    }
    return out
  }

  @Test func jobsAndShardsGiveTheSameBytesAsOneJob() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try sandbox.write("chain.json", Self.scenario)
    let one = try sandbox.run(["sweep", "chain.json"] + Self.grid + ["--jobs", "1", "--out", "one"])
    #expect(one.status == 0, "\(one.stderr)")
    #expect(one.stdout.hasPrefix("6 grid points x 6 seeds: 36 runs in "))
    #expect(one.stderr == "")  // not a terminal: no progress
    let reference = try files(sandbox, "one")
    #expect(reference.keys.sorted() == Self.wholeFiles.sorted())
    let runs = String(decoding: reference["runs.csv"]!, as: UTF8.self).split(separator: "\n")
    #expect(runs.count == 37)
    #expect(
      runs[0].hasPrefix(
        "run,rateLimiter.growth,rateLimiter.firstDelay,seed,tasks,finished,failed,allDoneSeconds,"))
    #expect(runs[1].hasPrefix("0,1.5,30s,1,2,2,0,"))

    let two = try sandbox.run(["sweep", "chain.json"] + Self.grid + ["--jobs", "2", "--out", "two"])
    #expect(two.status == 0, "\(two.stderr)")
    // Provenance and execution: what ran, with which bgsim, how many jobs and how fast.
    for (directory, jobs) in [("one", 1), ("two", 2)] {
      let data = try Data(contentsOf: sandbox.directory.appendingPathComponent("\(directory)/sweep.json"))
      let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
      #expect(manifest["scenario"] as? String == "chain.json")
      #expect((manifest["scenarioSHA256"] as? String)?.count == 64)
      #expect((manifest["bgsim"] as? [String: Any])?["version"] as? String == "0.1.0")
      let execution = try #require(manifest["execution"] as? [String: Any])
      #expect(execution["jobs"] as? Int == jobs)
      #expect(((execution["wallSeconds"] as? NSNumber)?.doubleValue ?? -1) >= 0)
      #expect(((execution["runsPerSecond"] as? NSNumber)?.doubleValue ?? 0) > 0)
    }
    try expectSameSweep(try files(sandbox, "two"), reference)

    var shards: [String] = []
    for k in 1...4 {
      let result = try sandbox.run(
        ["sweep", "chain.json"] + Self.grid + ["--jobs", "2", "--shard", "\(k)/4", "--out", "shard-\(k)"])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(try files(sandbox, "shard-\(k)").keys.sorted() == ["runs.csv", "sweep.json"])
      shards.append("shard-\(k)")
    }
    let merged = try sandbox.run(["sweep-merge"] + shards.reversed() + ["--out", "merged"])
    #expect(merged.status == 0, "\(merged.stderr)")
    #expect(merged.stdout.hasPrefix("merged 4 directories, 36 runs; wrote merged/"))
    try expectSameSweep(try files(sandbox, "merged"), reference)

    let incomplete = try sandbox.run(["sweep-merge", "shard-1", "shard-3", "--out", "bad"])
    #expect(incomplete.status == 2)
    #expect(
      incomplete.stderr
        == "bgsim: 2 of 4 shards are missing: 2/4, 4/4; give every shard's directory (did a shard fail?)\n")
  }

  /// Every file but `sweep.json` byte for byte; `sweep.json` equal once the fields that say how
  /// the run went (`execution`, `shard`, `shards`) are left out.
  func expectSameSweep(_ a: [String: Data], _ b: [String: Data]) throws {
    #expect(a.keys.sorted() == b.keys.sorted())
    for name in a.keys where name != "sweep.json" { #expect(a[name] == b[name], "\(name) differs") }
    func identity(_ data: Data?) throws -> NSDictionary {
      var object = try JSONSerialization.jsonObject(with: data ?? Data()) as! [String: Any]
      for key in ["execution", "shard", "shards"] { object[key] = nil }
      return object as NSDictionary
    }
    #expect(try identity(a["sweep.json"]) == identity(b["sweep.json"]))
  }

  @Test(arguments: [
    ([] as [String], "bgsim: missing --param KEY=V1,V2,... (the policy values to sweep)"),
    (["--param", "rateLimiter.grwth=2"], "did you mean 'rateLimiter.growth'?"),
    (["--param", "rateLimiter.growth=2", "--shard", "5/4"], "--shard expects K/N with 1 <= K <= N"),
    (["--param", "rateLimiter.growth=2", "--chart", "wake"], "did you mean 'wakes'?"),
    (["--param", "rateLimiter.growth=2", "--seeds", "9-1"], "--seeds expects ranges like 1-100"),
    (
      ["--param", "rateLimiter.growth=2", "--seeds", "1-100000,1-100000"],
      "bgsim: --seeds lists seed 1 twice\n"
    ),
    (
      ["--param", "rateLimiter.growth=2", "--chart", ","], "--chart expects metric names separated by commas"
    ),
    (["--param", "rateLimiter.growth=2", "--chart", "wakes,wakes"], "--chart lists wakes twice"),
    (
      SweepCommandTests.knobs(10),
      "bgsim: the grid (100 x 100 x 100 x 100 x 100 x 100 x 100 x 100 x 100 x 100 values) times 1 seeds is more than the 1,000,000 runs"
    ),
    (
      SweepCommandTests.knobs(5),
      "is more than the 1,000,000 runs one sweep may have"
    ),
  ])
  func usageMistakesExitWithTwo(arguments: [String], message: String) throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try sandbox.write("chain.json", Self.scenario)
    let result = try sandbox.run(["sweep", "chain.json"] + arguments)
    #expect(result.status == 2)
    #expect(result.stderr.contains(message), "\(result.stderr)")
  }
}
