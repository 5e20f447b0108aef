import SimKernel

/// The positions of some events (one kind's, or the whole trace's) by the written value of one
/// field, for the trace patterns that give that field: N patterns that differ in its value read
/// the events once between them (`TraceKindIndex.positions(of:field:value:)`).
///
/// Values are kept by their UTF-8 bytes (`WrittenKey`), the way patterns match: a `String` key
/// would file a value written in another Unicode normalization form with this one, and a `*`
/// pattern could then miss it.
final class FieldValueIndex {
  private var positions: [WrittenKey: [Int]] = [:]
  /// The values, for `*` patterns; made when the first one needs them.
  private var ranges: NameRanges?

  /// Files each of `events` (positions in `trace`) that has the field `key`.
  init(_ events: some Sequence<Int>, in trace: [TraceEvent], key: String) {
    for position in events {
      if let written = trace[position][key] {
        positions[WrittenKey(written.description), default: []].append(position)
      }
    }
  }

  /// Where the events whose value `value` can match are, in trace order: those written exactly
  /// `value`, or for a `*` value those whose value has its literal beginning or end (then each
  /// still to be matched). Nil when the value has neither (`*`, `*x*`): every event can match.
  func positions(matching value: String) -> [Int]? {
    guard value.utf8.contains(TracePattern.star) else { return positions[WrittenKey(value)] ?? [] }
    let ranges = self.ranges ?? NameRanges(positions.keys.map(\.text))
    self.ranges = ranges
    guard let values = ranges.names(matching: value) else { return nil }
    if values.count == 1 { return positions[WrittenKey(values[0])] ?? [] }
    return values.flatMap { positions[WrittenKey($0)] ?? [] }.sorted()
  }
}
