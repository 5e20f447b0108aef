import SimKernel

/// The positions of some events by the written value of one field: the task index's events by
/// task name (`TaskEventIndex`), and for the trace patterns that give another field, one kind's
/// events (or the whole trace's) by that field (`TraceKindIndex.positions(of:field:value:)`). N
/// patterns that differ in the value read the events once between them.
///
/// Values are kept by their UTF-8 bytes (`WrittenKey`), the way patterns match: a `String` key
/// would file a value written in another Unicode normalization form with this one, and a `*`
/// pattern could then miss it.
final class FieldValueIndex {
  private var positions: [WrittenKey: [Int]] = [:]
  /// The values, for `*` patterns; made when the first one needs them (no value is filed after).
  private var ranges: NameRanges?

  /// An empty index, filled by `file(_:at:)`.
  init() {}

  /// Files each of `events` (positions in `trace`) that has the field `key`.
  convenience init(_ events: some Sequence<Int>, in trace: [TraceEvent], key: String) {
    self.init()
    for position in events {
      if let written = trace[position][key] { file(written.description, at: position) }
    }
  }

  /// Files the event at `position` under `value`; positions must ascend.
  func file(_ value: String, at position: Int) {
    positions[WrittenKey(value), default: []].append(position)
  }

  /// Where the events written exactly `value` are, in trace order.
  func positions(of value: String) -> [Int] { positions[WrittenKey(value)] ?? [] }

  /// The values `pattern` (with a `*`) matches, or nil when only trying every value would tell
  /// (`*`, `*x*`).
  func values(matching pattern: String) -> [String]? {
    let ranges = self.ranges ?? NameRanges(positions.keys.map(\.text))
    self.ranges = ranges
    return ranges.names(matching: pattern)
  }

  /// Where the events whose value `value` can match are, in trace order: those written exactly
  /// `value`, or for a `*` value those of the values it matches. Nil when the value has neither
  /// a literal beginning nor end (`*`, `*x*`): every event can match.
  func positions(matching value: String) -> [Int]? {
    guard value.utf8.contains(TracePattern.star) else { return positions(of: value) }
    guard let values = values(matching: value) else { return nil }
    if values.count == 1 { return positions(of: values[0]) }
    return values.flatMap(positions(of:)).sorted()
  }
}
