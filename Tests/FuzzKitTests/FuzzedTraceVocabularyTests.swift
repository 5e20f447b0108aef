import Foundation
import ScenarioKit
import SimKernel
import Testing

@testable import FuzzKit

/// The trace vocabulary that `expect` patterns are checked against lists every kind and key
/// the engine writes: shipped scenarios and fuzzed ones write nothing outside it.
@Suite struct FuzzedTraceVocabularyTests {
  @Test func everyEventTheEngineWritesIsInTheVocabulary() throws {
    var unknown: Set<String> = []
    func check(_ result: RunResult) {
      for event in result.trace.events {
        guard let keys = TraceVocabulary.keys[event.kind] else {
          unknown.insert(event.kind)
          continue
        }
        for field in event.fields where !keys.contains(field.key) {
          unknown.insert("\(event.kind) \(field.key)")
        }
      }
    }
    for seed in UInt64(1)...300 { check(ScenarioRunner.run(ScenarioGenerator.scenario(seed: seed))) }
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Scenarios").path
    let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }
    #expect(!files.isEmpty)
    for file in files { check(ScenarioRunner.run(try ScenarioLoader.load(path: folder + "/" + file))) }
    #expect(unknown.isEmpty, "kinds or keys missing from TraceVocabulary: \(unknown.sorted())")
  }
}
