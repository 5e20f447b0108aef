import Foundation
import ScenarioKit
import SimKernel
import Testing
import TransferEngine

/// One background session with thousands of downloads, each with its own start date, played
/// through the public products: each date starts its own task, in date order, once (each date
/// used to decide the whole queue again), with a delegate answering `willBeginDelayedRequest`.
@Suite struct ManyStartDatesTests {
  /// `count` downloads created at 1 s, download i starting at `dates[i]` seconds.
  static func scenario(dates: [Int]) -> String {
    let downloads = dates.enumerated().map { i, date in
      #"{"at": "1s", "do": "download", "session": "S", "url": "https://e.com/f", "name": "d-\#(i)", "earliestBegin": "\#(date)s"}"#
    }
    return """
      {
        "name": "many-start-dates", "duration": "2d",
        "device": {"network": [{"at": "0s", "interface": "wifi", "down": "1Gbps", "latency": "10ms"}]},
        "server": {"resources": [{"url": "https://e.com/f", "size": "10KB"}]},
        "app": {"sessions": [{"identifier": "S", "kind": "background"}],
                "behavior": {"willBeginDelayedRequest": [{"answer": "continueLoading"}]}},
        "timeline": [{"at": "0s", "do": "launch"}, \(downloads.joined(separator: ", ")), {"at": "2s", "do": "background"}]
      }
      """
  }

  @Test("2,000 start dates in random order: each task starts at its own date, in date order, once")
  func eachDateStartsItsTask() throws {
    var generator = SeededGenerator(seed: 7)
    let dates = (1...2_000).map { 10 + $0 * 30 }.shuffled(using: &generator)
    let text = Self.scenario(dates: dates)
    let result = ScenarioRunner.run(try ScenarioLoader.load(data: Array(text.utf8), file: "dates.json"))
    #expect(result.runError == nil)
    let started = result.trace.events.filter { $0.kind == "task.started" }
    let expected = dates.enumerated().sorted { $0.element < $1.element }.map { "d-\($0.offset)" }
    #expect(started.map { $0["task"]?.description ?? "" } == expected)
    let asked = result.trace.events.filter { $0.kind == "delegate.willBeginDelayedRequest" }
    #expect(asked.count == dates.count)
    #expect(result.trace.events.filter { $0.kind == "task.finished" }.count == dates.count)
  }
}
