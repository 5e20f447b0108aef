import ScenarioKit
import SimKernel

/// Reads a trace in the JSON Lines form `bgsim run --trace-out` and `BgsimRecorder` write:
/// one object a line with `t` (integer nanoseconds), `at`, `kind`, then the event's fields.
///
/// Lenient where the format grows (any kind, any scalar field; a repeated `kind` key is the
/// first the envelope's, later ones a field) and strict where a line is not a trace event at
/// all: that is an error naming the file and line.
public enum TraceLogReader {
  /// Kinds the recorder writes about the recording itself, not about the app.
  public static let metadataPrefix = "recorder."
  /// The largest log `bgsim calibrate` reads: weeks of a busy app's events.
  public static let maxLogBytes = 1 << 30

  /// The events of `text`, in file order; blank lines are skipped.
  ///
  /// - Complexity: O(bytes).
  public static func read(_ text: String, file: String) throws(CalibrationError) -> [TraceEvent] {
    var events: [TraceEvent] = []
    var lineNumber = 0
    var last = SimTime.zero
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      lineNumber += 1
      if line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { continue }
      let event = try parse(line, file: file, line: lineNumber)
      if event.time < last {
        throw CalibrationError(
          "\(file):\(lineNumber): time goes back (t \(event.time.nanoseconds) after \(last.nanoseconds)); "
            + "a trace lists events in the order they happened")
      }
      last = event.time
      events.append(event)
    }
    guard !events.isEmpty else {
      throw CalibrationError("\(file): no events; expected JSON Lines as 'bgsim run --trace-out' writes")
    }
    return events
  }

  static func parse(_ line: Substring, file: String, line number: Int) throws(CalibrationError) -> TraceEvent
  {
    let place = "\(file):\(number)"
    let expected =
      "expected one trace event per line like {\"t\": 0, \"at\": \"0s\", \"kind\": \"app.launch\"}"
    let value: JSONValue
    do {
      value = try JSONParser.parse(Array(line.utf8), allowsDuplicateKeys: true)
    } catch {
      throw CalibrationError("\(place): not JSON (\(error.description)); \(expected)")
    }
    guard case .object(let members) = value.content else {
      throw CalibrationError("\(place): not a JSON object; \(expected)")
    }
    var time: SimTime?
    var kind: String?
    var fields: [TraceField] = []
    for member in members {
      switch member.key {
      case "t" where time == nil:
        guard case .number(let n) = member.value.content, let ns = n.int64, ns >= 0 else {
          throw CalibrationError(
            "\(place): \"t\" must be a whole number of nanoseconds of 0 or more; \(expected)")
        }
        time = SimTime(nanoseconds: ns)
      case "at" where fields.isEmpty && kind == nil:
        guard member.value.string != nil else {
          throw CalibrationError("\(place): \"at\" must be a duration string like \"1m30s\"")
        }
      case "kind" where kind == nil:
        guard let text = member.value.string, isKind(text) else {
          throw CalibrationError(
            "\(place): \"kind\" must name an event kind like \"app.launch\" or \"delegate.didComplete\"")
        }
        kind = text
      default:
        fields.append(TraceField(member.key, try scalar(member.value, key: member.key, place: place)))
      }
    }
    guard let time else { throw CalibrationError("\(place): missing \"t\"; \(expected)") }
    guard let kind else { throw CalibrationError("\(place): missing \"kind\"; \(expected)") }
    return TraceEvent(time: time, kind: kind, fields: fields)
  }

  /// `area.name` (`app.launch`) or a bare area (`lint`): letters and digits, lowercase first.
  static func isKind(_ text: String) -> Bool {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty }), let first = text.first,
      first.isLetter && first.isLowercase
    else { return false }
    return parts.allSatisfy { $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
  }

  static func scalar(_ value: JSONValue, key: String, place: String) throws(CalibrationError) -> TraceValue {
    switch value.content {
    case .string(let s): return .string(s)
    case .bool(let b): return .bool(b)
    case .number(let n):
      if let i = n.int64 { return .int(i) }
      return .double(n.double)
    case .null, .array, .object:
      throw CalibrationError("\(place): field \"\(key)\" must be a string, number or boolean")
    }
  }
}
