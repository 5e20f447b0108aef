import Foundation
import Testing

/// `bgsim explore` finds a scripted app's bug without the scenario naming where it is.
@Suite struct ExploreCommandTests {
  /// The app does not recreate its session when relaunched in the background; nothing in the
  /// file terminates it, so the run without faults is clean.
  static let unnamed = """
    {"name": "maps", "seed": 13, "duration": "1h",
     "server": {"resources": [{"url": "https://example.com/tiles.zip", "size": "120MB", "etag": "t"}]},
     "app": {"sessions": [{"identifier": "Maps", "kind": "background"}],
             "behavior": {"recreatesSessionsOnLaunch": false}},
     "timeline": [{"at": "0s", "do": "launch"},
                  {"at": "1s", "do": "download", "session": "Maps", "url": "https://example.com/tiles.zip", "name": "tiles"},
                  {"at": "2s", "do": "background"}]}
    """

  func text(_ sandbox: BgsimSandbox, _ path: String) throws -> String {
    try String(contentsOf: sandbox.directory.appendingPathComponent(path), encoding: .utf8)
  }

  @Test func findsTheSessionNotRecreatedAndWritesReplays() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try sandbox.write("maps.json", Self.unnamed)
    let result = try sandbox.run(["explore", "maps.json", "--seeds", "1-10", "--jobs", "2", "--out", "two"])
    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stdout.contains("terminationNotTransparent"))
    #expect(result.stdout.contains("sessionNotRecreated"))
    let findings = try text(sandbox, "two/findings.json")
    #expect(findings.contains("\"rule\": \"sessionNotRecreated\""))
    #expect(findings.contains("\"kind\": \"terminate\""))
    // One worker gives the same bytes.
    let one = try sandbox.run(["explore", "maps.json", "--seeds", "1-10", "--jobs", "1", "--out", "one"])
    #expect(one.status == 1)
    #expect(try text(sandbox, "one/findings.json") == findings)
    // The replay scenario runs, and shows the lint.
    let replay = try sandbox.run([
      "run", "two/replay-2-sessionNotRecreated.json", "--trace-out", "replay.jsonl",
    ])
    #expect(replay.status == 0, "\(replay.stderr)")
    #expect(try text(sandbox, "replay.jsonl").contains("sessionNotRecreated"))
  }

  @Test func anAppThatRecoversHasNoFinding() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    let file = BgsimSandbox.packageRoot.appendingPathComponent("Scenarios/force-quit.json").path
    let result = try sandbox.run(["explore", file, "--seeds", "1-10", "--out", "out"])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(try text(sandbox, "out/findings.json").contains("\"findings\": []"))
  }

  @Test func badArgumentsAreUsageErrors() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try sandbox.write("maps.json", Self.unnamed)
    #expect(try sandbox.run(["explore"]).status == 2)
    let shard = try sandbox.run(["explore", "maps.json", "--shard", "3/2"])
    #expect(shard.status == 2)
    #expect(shard.stderr.contains("--shard expects K/N"))
    #expect(try sandbox.run(["explore", "missing.json"]).status == 2)
    let many = try sandbox.run(["explore", "maps.json", "--seeds", "1-1000000000000"])
    #expect(many.status == 2)
    #expect(
      many.stderr.hasPrefix(
        "bgsim: --seeds '1-1000000000000' asks for more than 1,000,000 seeds, the most bgsim takes in one command\n"
      ),
      "\(many.stderr)")
  }

  @Test func twoShardsMergeIntoTheWholeExplorationByteForByte() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try sandbox.write("maps.json", Self.unnamed)
    let whole = try sandbox.run(["explore", "maps.json", "--seeds", "1-10", "--out", "whole"])
    #expect(whole.status == 1, "\(whole.stderr)")
    for k in 1...2 {
      let shard = try sandbox.run([
        "explore", "maps.json", "--seeds", "1-10", "--shard", "\(k)/2", "--out", "s\(k)",
      ])
      #expect([0, 1].contains(shard.status), "\(shard.stderr)")
      #expect(try text(sandbox, "s\(k)/shard.json").contains("\"shardIndex\" : \(k)"))
    }
    let merged = try sandbox.run(["explore-merge", "s2", "s1", "--out", "merged"])
    #expect(merged.status == 1, "\(merged.stderr)")
    #expect(merged.stdout.contains("sessionNotRecreated"))
    let names = try FileManager.default.contentsOfDirectory(
      atPath: sandbox.directory.appendingPathComponent("whole").path
    ).sorted()
    #expect(names.contains("replay-2-sessionNotRecreated.json"))
    let mergedNames = try FileManager.default.contentsOfDirectory(
      atPath: sandbox.directory.appendingPathComponent("merged").path
    ).sorted()
    #expect(mergedNames == names)
    for name in names {
      #expect(try text(sandbox, "merged/" + name) == text(sandbox, "whole/" + name), "\(name)")
    }
    // The carried-over replay runs.
    let replay = try sandbox.run([
      "run", "merged/replay-2-sessionNotRecreated.json", "--trace-out", "r.jsonl",
    ])
    #expect(replay.status == 0, "\(replay.stderr)")
  }

  @Test func shardsThatDoNotMakeOneExplorationAreRefused() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try sandbox.write("maps.json", Self.unnamed)
    _ = try sandbox.run(["explore", "maps.json", "--seeds", "1-4", "--shard", "1/2", "--out", "a"])
    _ = try sandbox.run(["explore", "maps.json", "--seeds", "1-6", "--shard", "2/2", "--out", "b"])
    let seeds = try sandbox.run(["explore-merge", "a", "b", "--out", "m"])
    #expect(seeds.status == 2)
    #expect(seeds.stderr.contains("seeds 1-6"), "\(seeds.stderr)")
    let missing = try sandbox.run(["explore-merge", "a", "--out", "m"])
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("missing: 2/2"), "\(missing.stderr)")
    let notShard = try sandbox.run(["explore-merge", "a", "nowhere", "--out", "m"])
    #expect(notShard.status == 2)
    #expect(notShard.stderr.contains("nowhere: no shard.json"), "\(notShard.stderr)")
    #expect(try sandbox.run(["explore-merge"]).status == 2)
    // An output folder that is a file: 74.
    _ = try sandbox.run(["explore", "maps.json", "--seeds", "1-4", "--shard", "2/2", "--out", "c"])
    try sandbox.write("blocked", "a file")
    let blocked = try sandbox.run(["explore-merge", "a", "c", "--out", "blocked"])
    #expect(blocked.status == 74, "\(blocked.stderr)")
    #expect(blocked.stderr.contains("blocked"))
  }
}
