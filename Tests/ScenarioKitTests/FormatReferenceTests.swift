import Foundation
import ScenarioKit
import Testing
import TransferEngine

/// `docs/scenario-format.md` and `docs/behavior.md` say what the code does: the reference's
/// generated blocks equal what `FormatReference` renders from the loader, the schema and the
/// engine's trace vocabulary. Run with `BGSIM_UPDATE_DOCS=1` to rewrite the blocks.
@Suite struct FormatReferenceTests {
  static let docs = ScenarioSchemaTests.packageRoot.appendingPathComponent("docs")

  @Test func generatedBlocksAreCurrent() throws {
    let url = Self.docs.appendingPathComponent("scenario-format.md")
    let page = try String(contentsOf: url, encoding: .utf8)
    for (name, _) in FormatReference.blocks {
      #expect(page.contains(FormatReference.openingMarker(name)), "the page lacks the block '\(name)'")
    }
    let current = FormatReference.update(page)
    if current != page, ProcessInfo.processInfo.environment["BGSIM_UPDATE_DOCS"] == "1" {
      try Data(current.utf8).write(to: url, options: .atomic)
      return
    }
    #expect(
      current == page,
      "docs/scenario-format.md is stale: BGSIM_UPDATE_DOCS=1 swift test --filter FormatReferenceTests")
  }

  /// The page's tables list every trace kind, action and lint rule the code knows.
  @Test func pageNamesEverythingTheCodeKnows() throws {
    let page = try String(contentsOf: Self.docs.appendingPathComponent("scenario-format.md"), encoding: .utf8)
    for kind in TraceKind.allCases { #expect(page.contains("| `\(kind.name)` |"), "\(kind.name)") }
    for rule in LintRule.allCases { #expect(page.contains("`\(rule.rawValue)`"), "\(rule.rawValue)") }
    for key in ScenarioLoader.topLevelKeys { #expect(page.contains("| `\(key)` |"), "\(key)") }
    for reason in SimURLSessionTask.WaitReason.Kind.deferrable {
      #expect(page.contains("`\(reason.rawValue)`"), "\(reason.rawValue)")
    }
  }

  /// behavior.md names every policy knob (by its last component) with its default, and every lint.
  @Test func behaviorPageNamesEveryKnobAndLint() throws {
    let page = try String(contentsOf: Self.docs.appendingPathComponent("behavior.md"), encoding: .utf8)
    let defaults = PolicyJSON.render(.defaults)
    for line in defaults.split(separator: "\n") {
      guard let colon = line.firstIndex(of: ":"), line.contains("\"") else { continue }
      let key = line[..<colon].trimmingCharacters(in: .whitespaces).trimmingCharacters(
        in: .init(charactersIn: "\""))
      if ["rateLimiter", "discretionary", "retry", "reboot", "delayedRequest"].contains(key) { continue }
      #expect(page.contains(key), "behavior.md does not mention the knob '\(key)'")
    }
    for rule in LintRule.allCases { #expect(page.contains("`\(rule.rawValue)`"), "\(rule.rawValue)") }
  }
}
