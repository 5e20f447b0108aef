import Foundation
import Testing

/// `bgsim explore` on the shipped scenarios with a planted bug: each is found under the lint rule
/// the scenario expects, a correct app has none, and the findings do not depend on `--jobs` or
/// on sharding (issue 25).
@Suite struct ExploreShippedScenariosTests {
  /// A few seeds keep each exploration under a second in a debug build; every kill point runs
  /// whatever the seeds.
  static let seeds = "1-3"

  static var scenarios: URL { BgsimSandbox.packageRoot.appendingPathComponent("Scenarios") }

  /// The scenario file as JSON.
  static func object(_ name: String) throws -> [String: Any] {
    let data = try Data(contentsOf: scenarios.appendingPathComponent(name))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  /// Each shipped scenario that expects a lint (`{"lint": RULE, "present": true}`), by file name,
  /// and those whose files name their lint otherwise (in a trace expectation, or the
  /// one-task-per-wake chains that describe the pattern).
  static func plantedLints() throws -> [(file: String, rule: String)] {
    let names = try FileManager.default.contentsOfDirectory(atPath: scenarios.path).filter {
      $0.hasSuffix(".json")
    }.sorted()
    let expected = try names.compactMap { name -> (file: String, rule: String)? in
      let expectations = try object(name)["expect"] as? [[String: Any]] ?? []
      let planted = expectations.first { $0["present"] as? Bool == true }?["lint"] as? String
      return planted.map { (name, $0) }
    }
    return expected + [
      ("lint-background-task-not-ended.json", "backgroundTaskNotEnded"),
      ("podcast-feed-one-per-wake.json", "oneTaskPerWake"),
      ("discretionary-chain-on-battery.json", "oneTaskPerWake"),
    ]
  }

  func text(_ sandbox: BgsimSandbox, _ path: String) throws -> String {
    try String(contentsOf: sandbox.directory.appendingPathComponent(path), encoding: .utf8)
  }

  /// Writes a shipped scenario changed by `edit` into the sandbox, its expectations dropped.
  func write(
    _ sandbox: BgsimSandbox, _ name: String, as file: String, _ edit: (inout [String: Any]) -> Void
  ) throws {
    var object = try Self.object(name)
    object["expect"] = []
    edit(&object)
    try sandbox.write(
      file, [UInt8](try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])))
  }

  @Test func everyShippedLintScenarioIsFoundUnderItsRule() throws {
    let planted = try Self.plantedLints()
    // Every lint-*.json is among them, and their bugs are lints of different rules.
    let lintFiles = try FileManager.default.contentsOfDirectory(atPath: Self.scenarios.path).filter {
      $0.hasPrefix("lint-") && $0.hasSuffix(".json")
    }
    #expect(lintFiles.count >= 9)
    #expect(Set(lintFiles).isSubset(of: Set(planted.map(\.file))))
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    for (file, rule) in planted {
      let path = Self.scenarios.appendingPathComponent(file).path
      let out = "out-" + file.replacingOccurrences(of: ".json", with: "")
      let result = try sandbox.run(["explore", path, "--seeds", Self.seeds, "--out", out])
      #expect(result.status == 1, "\(file): \(result.stdout)\(result.stderr)")
      #expect(result.stdout.contains("\n  \(rule) (reached by"), "\(file): \(result.stdout)")
      let findings = try text(sandbox, out + "/findings.json")
      #expect(findings.contains("{\"rule\": \"\(rule)\""), "\(file)")
    }
  }

  /// A bug the timeline shows with its own `terminate` is found at a kill point without it: the
  /// exploration places the termination itself.
  @Test func theTimelinesOwnTerminationIsNotNeeded() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try write(sandbox, "lint-session-not-recreated.json", as: "maps.json") { object in
      let timeline = object["timeline"] as? [[String: Any]] ?? []
      object["timeline"] = timeline.filter { $0["do"] as? String != "terminate" }
    }
    let clean = try sandbox.run(["run", "maps.json", "--trace-out", "clean.jsonl"])
    #expect(clean.status == 0, "\(clean.stderr)")
    #expect(try !text(sandbox, "clean.jsonl").contains("sessionNotRecreated"))
    let result = try sandbox.run(["explore", "maps.json", "--seeds", Self.seeds, "--out", "out"])
    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stdout.contains("sessionNotRecreated (reached by 1): system termination at 2s"))
    let replay = try sandbox.run(["run", "out/replay-2-sessionNotRecreated.json", "--trace-out", "r.jsonl"])
    #expect(replay.status == 0, "\(replay.stderr)")
    #expect(try text(sandbox, "r.jsonl").contains("\"rule\": \"sessionNotRecreated\""))
  }

  /// The same worlds with the app's bug fixed explore clean.
  @Test func theFixedAppsHaveNoFinding() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    let fixes: [(file: String, behavior: [String: Any])] = [
      ("lint-downloaded-file-lost.json", ["movesDownloadedFile": true]),
      ("lint-completion-handler-never-called.json", ["callsCompletionHandler": "afterEvents"]),
    ]
    for (index, fix) in fixes.enumerated() {
      try write(sandbox, fix.file, as: "fixed-\(index).json") { object in
        var app = object["app"] as? [String: Any] ?? [:]
        app["behavior"] = fix.behavior
        object["app"] = app
      }
      let result = try sandbox.run([
        "explore", "fixed-\(index).json", "--seeds", Self.seeds, "--out", "fixed-\(index)",
      ])
      #expect(result.status == 0, "\(fix.file): \(result.stdout)\(result.stderr)")
      #expect(try text(sandbox, "fixed-\(index)/findings.json").contains("\"findings\": []"))
    }
  }

  /// `--jobs 1`, `--jobs 2` and two shards merged write the same files, byte for byte: for a bug
  /// in the run without faults and for one found at a kill point.
  @Test func findingsAreTheSameWhateverTheJobsAndShards() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try write(sandbox, "lint-session-not-recreated.json", as: "maps.json") { object in
      let timeline = object["timeline"] as? [[String: Any]] ?? []
      object["timeline"] = timeline.filter { $0["do"] as? String != "terminate" }
    }
    let slow = Self.scenarios.appendingPathComponent("lint-slow-callback.json").path
    for (tag, file) in [("maps", "maps.json"), ("slow", slow)] {
      let seeds = ["--seeds", "1-6"]
      let one = try sandbox.run(["explore", file] + seeds + ["--jobs", "1", "--out", "\(tag)-one"])
      let two = try sandbox.run(["explore", file] + seeds + ["--jobs", "2", "--out", "\(tag)-two"])
      #expect(one.status == 1 && two.status == 1, "\(one.stderr)\(two.stderr)")
      for k in 1...2 {
        let shard = try sandbox.run(
          ["explore", file] + seeds + ["--shard", "\(k)/2", "--out", "\(tag)-s\(k)"])
        #expect([0, 1].contains(shard.status), "\(shard.stderr)")
      }
      let merged = try sandbox.run(["explore-merge", "\(tag)-s2", "\(tag)-s1", "--out", "\(tag)-merged"])
      #expect(merged.status == 1, "\(merged.stderr)")
      let names = try FileManager.default.contentsOfDirectory(
        atPath: sandbox.directory.appendingPathComponent("\(tag)-one").path
      ).sorted()
      #expect(names.contains("findings.json") && names.count > 2)
      for folder in ["\(tag)-two", "\(tag)-merged"] {
        let theirs = try FileManager.default.contentsOfDirectory(
          atPath: sandbox.directory.appendingPathComponent(folder).path
        ).sorted()
        #expect(theirs == names, "\(folder)")
        for name in names {
          #expect(
            try text(sandbox, "\(folder)/\(name)") == text(sandbox, "\(tag)-one/\(name)"), "\(folder)/\(name)"
          )
        }
      }
    }
  }
}
