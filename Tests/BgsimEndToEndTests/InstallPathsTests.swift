import Foundation
import Testing

/// The ways to get bgsim that the README's first screen names (Mint, the Homebrew formula, the
/// portable binary, the command plugin) must exist and keep the names those tools rely on.
@Suite struct InstallPathsTests {
  static func text(_ path: String) throws -> String {
    try String(contentsOf: BgsimSandbox.packageRoot.appendingPathComponent(path), encoding: .utf8)
  }

  /// The README's first screen: the two newcomer commands first, then every install path.
  @Test func readmeFirstScreenNamesEveryWayToGetBgsim() throws {
    let lines = try Self.text("README.md").split(separator: "\n", omittingEmptySubsequences: false)
    let firstScreen = lines.prefix(24).joined(separator: "\n")
    let run = try #require(
      firstScreen.range(of: "swift run bgsim run Scenarios/relaunch-after-termination.json"))
    let test = try #require(firstScreen.range(of: "swift test "))
    for way in [
      "mint install", "deploy/homebrew/bgsim.rb", "scripts/build-static.sh", "swift package bgsim check",
    ] {
      let found = try #require(firstScreen.range(of: way), "the README's first screen does not name \(way)")
      #expect(found.lowerBound > run.lowerBound && found.lowerBound > test.lowerBound)
    }
    for file in ["deploy/homebrew/bgsim.rb", "scripts/build-static.sh", "Plugins/BgsimCommand/plugin.swift"] {
      #expect(
        FileManager.default.fileExists(atPath: BgsimSandbox.packageRoot.appendingPathComponent(file).path),
        "\(file) is missing")
    }
  }

  /// Mint builds the executable product named like the repository; the plugin's verb is what
  /// users type after `swift package`.
  @Test func packageKeepsTheNamesMintAndThePluginUse() throws {
    let manifest = try Self.text("Package.swift")
    #expect(manifest.contains(".executable(name: \"bgsim\", targets: [\"bgsim\"])"))
    #expect(manifest.contains(".plugin(name: \"BgsimCommand\", targets: [\"BgsimCommand\"])"))
    #expect(manifest.contains("intent: .custom(verb: \"bgsim\""))
  }
}
