import Foundation
import FuzzKit
import ScenarioKit
import Testing

/// Minimised scenarios of bugs the fuzzer (or the invariants) found, kept so they stay fixed.
@Suite("Fuzz regressions")
struct RegressionTests {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Regressions")

  static var files: [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".json") }.sorted()
  }

  @Test("there are regression cases")
  func present() { #expect(!Self.files.isEmpty) }

  @Test("each regression case loads, breaks no invariant and replays exactly", arguments: files)
  func regression(file: String) throws {
    let path = Self.directory.appendingPathComponent(file).path
    let scenario = try ScenarioLoader.load(path: path)
    let json = try String(contentsOfFile: path, encoding: .utf8)
    if let failure = FuzzRunner.checkLoaded(scenario, json: json) {
      Issue.record("\(file): \(failure.signature)\n\(failure.details)")
    }
    let result = ScenarioRunner.run(scenario, checksInvariants: true)
    #expect(result.passed, "\(file): an expectation failed")
  }
}
