import Foundation
import ScenarioKit
import SimKernel
import Testing

/// Every shipped scenario: valid, passing with the engine's invariants on, deterministic, and
/// matching its golden trace.
@Suite("The shipped scenario library")
struct ScenarioLibraryTests {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Scenarios")

  static let files: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".json") }.sorted()
  }()

  @Test("the library has at least 20 scenarios")
  func size() {
    #expect(Self.files.count >= 20)
  }

  @Test(arguments: files)
  func scenarioPasses(_ file: String) throws {
    let path = Self.directory.appendingPathComponent(file).path
    let scenario = try ScenarioLoader.load(path: path)
    #expect(!scenario.description.isEmpty)
    #expect(!scenario.expectations.isEmpty)
    let result = ScenarioRunner.run(scenario, checksInvariants: true)
    #expect(result.runError == nil)
    #expect(result.invariantViolation == nil)
    for failure in result.expectations where !failure.passed {
      Issue.record("\(file) \(failure.path): expected \(failure.expected); instead \(failure.found)")
    }
    let again = ScenarioRunner.run(scenario)
    #expect(again.trace.jsonLines == result.trace.jsonLines)
    let golden = try String(contentsOfFile: GoldenTrace.path(forScenario: path), encoding: .utf8)
    if let divergence = GoldenTrace.compare(golden: golden, actual: result.trace.jsonLines) {
      Issue.record("\(file): \(divergence)")
    }
  }

  @Test("GoldenTrace.compare finds the first differing line and its time")
  func goldenCompare() throws {
    let a = #"{"t": 0, "at": "0s", "kind": "x"}"# + "\n" + #"{"t": 5, "at": "5ns", "kind": "y"}"# + "\n"
    let b = #"{"t": 0, "at": "0s", "kind": "x"}"# + "\n" + #"{"t": 6, "at": "6ns", "kind": "y"}"# + "\n"
    #expect(GoldenTrace.compare(golden: a, actual: a) == nil)
    let d = try #require(GoldenTrace.compare(golden: a, actual: b))
    #expect(d.line == 2)
    #expect(d.at == "6ns")
    let shorter = try #require(
      GoldenTrace.compare(golden: a, actual: #"{"t": 0, "at": "0s", "kind": "x"}"# + "\n"))
    #expect(shorter.line == 2 && shorter.actual == "" && shorter.expected?.contains("5ns") == true)
    // The same name in the other Unicode normalization form is a different trace.
    let composed = #"{"t": 0, "at": "0s", "kind": "x", "task": "caf\#u{E9}"}"# + "\n"
    let decomposed = #"{"t": 0, "at": "0s", "kind": "x", "task": "cafe\#u{301}"}"# + "\n"
    #expect(composed == decomposed)
    #expect(GoldenTrace.compare(golden: composed, actual: decomposed)?.line == 1)
  }
}
