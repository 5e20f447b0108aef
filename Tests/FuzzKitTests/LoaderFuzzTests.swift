import FuzzKit
import ScenarioKit
import Testing

/// The loader fuzz target for a fixed number of inputs (`bgsim fuzz --loader` runs it longer).
@Suite("Fuzzing the scenario loader")
struct LoaderFuzzTests {
  @Test(
    "hostile inputs load or are refused with a message, each within a second", arguments: [1, 2] as [UInt64])
  func hostileInputs(seed: UInt64) {
    var fuzzer = LoaderFuzzer(seed: seed, corpusSize: 8)
    let report = fuzzer.run(iterations: 3_000)
    #expect(report.iterations == 3_000)
    #expect(report.rejected > 0 && report.loaded > 0, "the mutations should produce both")
    for finding in report.findings {
      Issue.record(
        "input \(finding.iteration): \(finding.problem)\n\(String(decoding: finding.input, as: UTF8.self))")
    }
  }
}
