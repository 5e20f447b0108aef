import CalibrationKit
import ScenarioKit
import SimKernel
import Testing
import TransferEngine

@Suite struct TraceLogReaderTests {
  @Test func aTraceFromBgsimRunReadsBackEventForEvent() throws {
    let world = try CalibrationWorlds.load(CalibrationWorlds.oneEpisodePerWake(episodes: 3))
    let trace = ScenarioRunner.run(world).trace
    let read = try TraceLogReader.read(trace.jsonLines, file: "t.jsonl")
    #expect(read.map(\.jsonLine) == trace.events.map(\.jsonLine))
  }

  @Test(arguments: [
    ("{\"t\": 0, \"kind\": \"app.launch\"}\nnot json\n", "log.jsonl:2: not JSON"),
    ("{\"t\": 0, \"kind\": \"app.launch\"}\n[1, 2]\n", "log.jsonl:2: not a JSON object"),
    ("{\"at\": \"0s\", \"kind\": \"app.launch\"}\n", "log.jsonl:1: missing \"t\""),
    (
      "{\"t\": 5, \"kind\": \"app.launch\"}\n{\"t\": 4, \"kind\": \"app.background\"}\n",
      "log.jsonl:2: time goes back"
    ),
    ("{\"t\": -1, \"kind\": \"app.launch\"}\n", "log.jsonl:1: \"t\" must be a whole number"),
    ("{\"t\": 1, \"kind\": \"App Launch\"}\n", "log.jsonl:1: \"kind\" must name an event kind"),
    ("{\"t\": 1, \"kind\": \"app.launch\", \"x\": [1]}\n", "log.jsonl:1: field \"x\" must be"),
    ("\n\n", "log.jsonl: no events"),
  ])
  func aLogThatIsNotTheTraceFormatIsAnErrorNamingTheLine(text: String, message: String) {
    #expect {
      _ = try TraceLogReader.read(text, file: "log.jsonl")
    } throws: { error in
      (error as? CalibrationError)?.message.hasPrefix(message) == true
    }
  }
}
