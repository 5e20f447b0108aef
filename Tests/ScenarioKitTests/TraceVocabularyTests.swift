import Foundation
import ScenarioKit
import SimKernel
import Testing
import TransferEngine

/// The engine's trace vocabulary (`TraceKind`) covers every event the shipped scenarios produce:
/// no kind or key is spelled anywhere but there.
@Suite("Trace vocabulary")
struct TraceVocabularyTests {
  @Test(arguments: ScenarioLibraryTests.files)
  func everyEventIsInTheVocabulary(_ file: String) throws {
    let path = ScenarioLibraryTests.directory.appendingPathComponent(file).path
    let result = ScenarioRunner.run(try ScenarioLoader.load(path: path))
    for event in result.trace.events {
      guard let kind = event.traceKind else {
        Issue.record("\(file): kind '\(event.kind)' is not a TraceKind")
        continue
      }
      for field in event.fields where !kind.fieldNames.contains(field.key) {
        Issue.record(
          "\(file): \(kind.name) carries '\(field.key)', not among its fieldNames \(kind.fieldNames)")
      }
    }
  }

  @Test("kinds are unique and name their subject; keys never repeat within a kind")
  func wellFormed() {
    #expect(Set(TraceKind.allCases.map(\.name)).count == TraceKind.allCases.count)
    for kind in TraceKind.allCases {
      #expect(Set(kind.fieldNames).count == kind.fieldNames.count, "\(kind.name)")
      #expect(TraceKind(rawValue: kind.name) == kind)
    }
  }

  @Test("no field shadows the envelope keys of a JSON Lines record (t, at, kind)")
  func noShadowedEnvelope() {
    for kind in TraceKind.allCases {
      #expect(!kind.fieldNames.contains { ["t", "at", "kind"].contains($0) }, "\(kind.name)")
    }
  }

  @Test(
    "every line of every golden trace parses with a strict parser that rejects duplicate keys",
    arguments: ScenarioLibraryTests.files)
  func goldenTraceIsStrictJSON(_ file: String) throws {
    let path = GoldenTrace.path(forScenario: ScenarioLibraryTests.directory.appendingPathComponent(file).path)
    let text = try String(contentsOfFile: path, encoding: .utf8)
    for (index, line) in text.split(separator: "\n").enumerated() {
      do {
        _ = try JSONParser.parse(Array(line.utf8))
      } catch {
        Issue.record("\(file) golden line \(index + 1): \(error)")
      }
    }
  }
}
