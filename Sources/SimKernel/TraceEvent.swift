/// One value in a trace event's fields.
public enum TraceValue: Hashable, Sendable, CustomStringConvertible {
  /// Text, such as a task's name or a URL.
  case string(String)
  /// A whole number, such as a byte count or a status.
  case int(Int64)
  /// A fraction, such as a battery level.
  case double(Double)
  /// A flag, such as `expensive`.
  case bool(Bool)
  /// A span of simulated time, written in the canonical form (`1m30s`).
  case duration(SimDuration)

  /// The value as a pattern in `expect` and the text timeline sees it (no quotes).
  public var description: String {
    switch self {
    case .string(let s): return s
    case .int(let i): return String(i)
    case .double(let d): return JSONText.number(d)
    case .bool(let b): return b ? "true" : "false"
    case .duration(let d): return d.formatted
    }
  }

  /// The value as JSON text.
  public var json: String {
    switch self {
    case .string(let s): return JSONText.quoted(s)
    case .int(let i): return String(i)
    case .double(let d): return JSONText.number(d)
    case .bool(let b): return b ? "true" : "false"
    case .duration(let d): return JSONText.quoted(d.formatted)
    }
  }
}

extension TraceValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral {
  public init(stringLiteral value: String) { self = .string(value) }
  public init(integerLiteral value: Int64) { self = .int(value) }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
}

/// One named field of a trace event; fields keep the order they were given in.
public struct TraceField: Hashable, Sendable {
  /// The field's name, from the kind's field list.
  public var key: String
  /// The value, typed so it is written to JSON as a string, number, Boolean or duration.
  public var value: TraceValue
  /// A field `key` holding `value`.
  public init(_ key: String, _ value: TraceValue) {
    self.key = key
    self.value = value
  }
}

/// One thing that happened, at one instant: a kind such as `task.started` and its fields.
public struct TraceEvent: Hashable, Sendable {
  /// When it happened.
  public var time: SimTime
  /// What happened, such as `task.finished` (the engine's kinds are `TraceKind`).
  public var kind: String
  /// The details, in the order the engine writes them.
  public var fields: [TraceField]

  /// An event of `kind` at `time` with `fields`.
  public init(time: SimTime, kind: String, fields: [TraceField] = []) {
    self.time = time
    self.kind = kind
    self.fields = fields
  }

  /// The value of a field, if present.
  public subscript(key: String) -> TraceValue? {
    fields.first { $0.key == key }?.value
  }

  /// The event as one JSON Lines record: `t`, `at`, `kind`, then the fields in their order.
  public var jsonLine: String {
    var out = "{\"t\": \(time.nanoseconds), \"at\": \(JSONText.quoted(time.sinceStart.formatted)), "
    out += "\"kind\": \(JSONText.quoted(kind))"
    for field in fields {
      out += ", \(JSONText.quoted(field.key)): \(field.value.json)"
    }
    out += "}"
    return out
  }
}

/// The events of one run, in the order they happened.
public struct TraceLog: Sendable {
  /// The recorded events, oldest first (empty when not recording).
  public private(set) var events: [TraceEvent] = []
  /// When false, events are counted but not kept (benchmarks of the engine alone).
  public var isRecording: Bool
  /// Events appended, recorded or not.
  public private(set) var count: Int = 0

  /// An empty log that keeps its events unless `isRecording` is false.
  public init(isRecording: Bool = true) { self.isRecording = isRecording }

  /// Records `event` after the others (only counts it when not recording).
  public mutating func append(_ event: TraceEvent) {
    count += 1
    if isRecording { events.append(event) }
  }

  /// The whole trace as JSON Lines, one event a line, each line ending in a newline.
  public var jsonLines: String {
    var out = ""
    for event in events {
      out += event.jsonLine
      out += "\n"
    }
    return out
  }
}

/// Minimal JSON text writing shared by the trace and the reports.
public enum JSONText {
  /// A JSON string literal with the escapes RFC 8259 requires.
  public static func quoted(_ s: String) -> String {
    // Nearly every string in a trace (kinds, names, URLs) needs no escape: copy it whole.
    if !s.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
      return "\"" + s + "\""
    }
    var out = "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
    return out
  }

  /// A JSON number: integral values without a fraction, others in Swift's shortest round-trip form.
  public static func number(_ d: Double) -> String {
    if !d.isFinite { return "null" }
    if d == d.rounded() && abs(d) < 1e15 { return String(Int64(d)) }
    return String(d)
  }
}
