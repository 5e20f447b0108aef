import SimKernel
import Testing

@Suite("TraceEvent JSON")
struct TraceEventTests {
  @Test("a trace line has t, at, kind, then the fields in order, with \": \" and \", \" separators")
  func jsonLine() {
    let event = TraceEvent(
      time: SimTime(nanoseconds: 3_600_000_000_000), kind: "task.started",
      fields: [
        TraceField("task", "book"), TraceField("bytes", 1_048_576), TraceField("discretionary", true),
        TraceField("rate", .double(1.5)), TraceField("delay", .duration(.milliseconds(250))),
      ])
    #expect(
      event.jsonLine
        == #"{"t": 3600000000000, "at": "1h", "kind": "task.started", "task": "book", "bytes": 1048576, "#
        + #""discretionary": true, "rate": 1.5, "delay": "250ms"}"#)
  }

  @Test("an event without fields, at time zero")
  func jsonLineWithoutFields() {
    let event = TraceEvent(time: .zero, kind: "sim.start")
    #expect(event.jsonLine == #"{"t": 0, "at": "0s", "kind": "sim.start"}"#)
  }

  @Test(
    "strings are escaped as RFC 8259 requires",
    arguments: [
      ("plain", #""plain""#),
      ("say \"hi\"", #""say \"hi\"""#),
      (#"C:\path"#, #""C:\\path""#),
      ("a\nb\rc\td", #""a\nb\rc\td""#),
      ("\u{01}\u{1F}", #""\u0001\u001f""#),
      ("\u{7F}é→🚀", "\"\u{7F}é→🚀\""),
      ("/", #""/""#),
    ])
  func quoted(raw: String, json: String) {
    #expect(JSONText.quoted(raw) == json)
  }

  @Test("keys and kinds are escaped too")
  func escapedKeys() {
    let event = TraceEvent(time: .zero, kind: "odd\"kind", fields: [TraceField("new\nline", "x")])
    #expect(event.jsonLine == #"{"t": 0, "at": "0s", "kind": "odd\"kind", "new\nline": "x"}"#)
  }

  @Test(
    "numbers: integral values without a fraction, non-finite as null",
    arguments: [
      (2.0, "2"), (-3.0, "-3"), (1.5, "1.5"), (0.1, "0.1"), (1e15, "1000000000000000.0"), (1e16, "1e+16"),
      (1e-7, "1e-07"), (.nan, "null"), (.infinity, "null"),
    ])
  func numbers(value: Double, text: String) {
    #expect(JSONText.number(value) == text)
  }

  @Test("field values as patterns and as JSON")
  func valueRendering() {
    let values: [TraceValue] = ["s", 7, true, .double(0.25), .duration(.seconds(90))]
    #expect(values.map(\.description) == ["s", "7", "true", "0.25", "1m30s"])
    #expect(values.map(\.json) == [#""s""#, "7", "true", "0.25", #""1m30s""#])
  }

  @Test("the log keeps events in order and writes one line each; a non-recording log only counts")
  func traceLog() {
    var log = TraceLog()
    log.append(TraceEvent(time: .zero, kind: "a"))
    log.append(TraceEvent(time: SimTime(nanoseconds: 1_000), kind: "b", fields: [TraceField("n", 1)]))
    #expect(log.count == 2)
    #expect(log.events.map(\.kind) == ["a", "b"])
    #expect(
      log.jsonLines == """
        {"t": 0, "at": "0s", "kind": "a"}
        {"t": 1000, "at": "1us", "kind": "b", "n": 1}

        """)
    var quiet = TraceLog(isRecording: false)
    quiet.append(TraceEvent(time: .zero, kind: "a"))
    #expect(quiet.count == 1)
    #expect(quiet.events.isEmpty)
    #expect(quiet.jsonLines == "")
  }
}
