import Foundation
import ScenarioKit
import Testing
import TransferEngine

/// False controls: scenarios whose expectations state a rule bgsim must NOT follow. Each lives in
/// `Tests/Fixtures/false-controls/` (not under `Scenarios/`, where every file must pass) and says
/// in `x-falseControl` which expectations must fail under the default policy (`fails`) and which
/// policy settings make them all hold (`passesWith`), so the control is shown able to pass too.
@Suite("False controls")
struct FalseControlTests {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/false-controls")

  static let files: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".json") }.sorted()
  }()

  @Test("there is a false control for the discretionary rule")
  func present() {
    #expect(Self.files.contains("discretionary-chain-requires-charging.json"))
  }

  @Test(arguments: files)
  func failsAsDeclared(_ file: String) throws {
    let path = Self.directory.appendingPathComponent(file).path
    let data = try #require(FileManager.default.contents(atPath: path))
    let control = try #require(try JSONParser.parse(Array(data))["x-falseControl"])
    let fails = try #require(control["fails"]?.array).compactMap { $0.string }
    let settings = try #require(control["passesWith"]?.array).compactMap { $0.string }
    #expect(!fails.isEmpty && !settings.isEmpty)

    var scenario = try ScenarioLoader.load(path: path)
    let result = ScenarioRunner.run(scenario, checksInvariants: true)
    #expect(result.runError == nil && result.invariantViolation == nil)
    #expect(
      result.expectations.filter { !$0.passed }.map(\.path) == fails, "\(file) under the default policy")

    for setting in settings { try PolicyJSON.apply(setting, to: &scenario.policy) }
    let strict = ScenarioRunner.run(scenario, checksInvariants: true)
    for failure in strict.expectations where !failure.passed {
      Issue.record(
        "\(file) with \(settings): \(failure.path) expected \(failure.expected); instead \(failure.found)")
    }
  }
}
