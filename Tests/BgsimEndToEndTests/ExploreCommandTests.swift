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
  }
}
