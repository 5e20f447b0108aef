import SafeOutput
import SimKernel
import TransferEngine

/// The value types of the scenario format, each with the wording its messages use.
extension ValueType where T == String {
  static var string: ValueType<String> {
    ValueType(expected: "a string") { v, path, ctx in
      guard let s = v.string else { return nilAfter(ctx.wrongType(path, v, expected: "a string")) }
      return s
    }
  }

  /// A name or identifier: a string that is not empty.
  static func name(_ what: String) -> ValueType<String> {
    ValueType(expected: "\(what), a non-empty string") { v, path, ctx in
      guard let s = v.string else {
        return nilAfter(ctx.wrongType(path, v, expected: "\(what), a non-empty string"))
      }
      guard !s.isEmpty else { return nilAfter(ctx.invalid(path, v, "\(what) must not be empty")) }
      return s
    }
  }
}

extension ValueType where T == Bool {
  static var bool: ValueType<Bool> {
    ValueType(expected: "true or false") { v, path, ctx in
      guard let b = v.bool else { return nilAfter(ctx.wrongType(path, v, expected: "true or false")) }
      return b
    }
  }
}

extension ValueType where T == Int64 {
  /// A JSON integer within `range`.
  static func integer(_ range: ClosedRange<Int64>, _ expected: String) -> ValueType<Int64> {
    ValueType(expected: expected) { v, path, ctx in
      guard let n = v.number, n.isInteger else { return nilAfter(ctx.wrongType(path, v, expected: expected)) }
      guard let i = n.int64, range.contains(i) else {
        return nilAfter(ctx.invalid(path, v, "\(n.text) is out of range; expected \(expected)"))
      }
      return i
    }
  }

  /// Bytes: a JSON integer, or a string such as `"50MB"`.
  static var size: ValueType<Int64> {
    ValueType(expected: Literals.sizeExample) { v, path, ctx in
      switch v.content {
      case .string(let s):
        do throws(LiteralError) {
          return try Literals.size(s)
        } catch {
          return nilAfter(ctx.invalid(path, v, error.message))
        }
      case .number(let n) where n.isInteger:
        guard let i = n.int64, i >= 0 else {
          if !n.text.hasPrefix("-") {
            return nilAfter(ctx.invalid(path, v, Literals.sizeTooLarge(n.text).message))
          }
          return nilAfter(
            ctx.invalid(path, v, "size \(n.text) is out of range; a size must be 0 or more bytes"))
        }
        guard i <= Literals.maxSize else {
          return nilAfter(ctx.invalid(path, v, Literals.sizeTooLarge(n.text).message))
        }
        return i
      case .number(let n):
        return nilAfter(
          ctx.invalid(
            path, v, "size \(n.text) is not a whole number of bytes; write a string such as \"\(n.text)MB\""))
      default: return nilAfter(ctx.wrongType(path, v, expected: Literals.sizeExample))
      }
    }
  }
}

extension ValueType where T == UInt64 {
  /// A seed: a JSON integer from 0 to `UInt64.max`, the seeds `bgsim run --seed`, `sweep` and
  /// `explore` take, so any seed a run printed can be written into its file.
  static var seed: ValueType<UInt64> {
    let expected = "a seed, an integer from 0 to \(UInt64.max)"
    return ValueType(expected: expected) { v, path, ctx in
      guard let n = v.number, n.isInteger else { return nilAfter(ctx.wrongType(path, v, expected: expected)) }
      if let small = n.int64, small >= 0 { return UInt64(small) }
      guard let large = UInt64(n.text) else {
        return nilAfter(ctx.invalid(path, v, "\(n.text) is out of range; expected \(expected)"))
      }
      return large
    }
  }
}

extension ValueType where T == Int {
  static func int(_ range: ClosedRange<Int>, _ expected: String) -> ValueType<Int> {
    let wide = ValueType<Int64>.integer(Int64(range.lowerBound)...Int64(range.upperBound), expected)
    return ValueType(expected: expected) { v, path, ctx in wide.decode(v, path, ctx).map { Int($0) } }
  }
}

extension ValueType where T == Double {
  /// A JSON number (integer or not) within `range`.
  static func number(_ range: ClosedRange<Double>, _ expected: String) -> ValueType<Double> {
    ValueType(expected: expected) { v, path, ctx in
      guard let n = v.number else { return nilAfter(ctx.wrongType(path, v, expected: expected)) }
      guard range.contains(n.double) else {
        return nilAfter(ctx.invalid(path, v, "\(n.text) is out of range; expected \(expected)"))
      }
      return n.double
    }
  }
}

extension ValueType where T == SimDuration {
  /// A duration string, or a bare JSON number of seconds.
  static var duration: ValueType<SimDuration> {
    ValueType(expected: Literals.durationExample) { v, path, ctx in
      do throws(LiteralError) {
        switch v.content {
        case .string(let s): return try Literals.duration(s)
        case .number(let n): return try Literals.duration(seconds: n)
        default: return nilAfter(ctx.wrongType(path, v, expected: Literals.durationExample))
        }
      } catch {
        return nilAfter(ctx.invalid(path, v, error.message))
      }
    }
  }
}

extension ValueType where T == SimTime {
  /// An instant: a duration since the scenario's start (no `+`).
  static var instant: ValueType<SimTime> {
    let expected =
      "an instant (time since the start) like \"0s\", \"20m\" or \"1h30m\", or with 'startsAt' a time of day like \"22:00\""
    return ValueType(expected: expected) { v, path, ctx in
      do throws(LiteralError) {
        switch v.content {
        case .string(let s):
          if let clock = TimeOfDay.seconds(s) { return timeOfDay(clock, s, v, path, ctx) }
          if let problem = TimeOfDay.malformed(s) { return nilAfter(ctx.invalid(path, v, problem)) }
          guard case .absolute(let t) = try Literals.instant(s, allowRelative: false) else { return nil }
          return t
        case .number(let n): return SimTime(try Literals.duration(seconds: n))
        default: return nilAfter(ctx.wrongType(path, v, expected: expected))
        }
      } catch {
        return nilAfter(ctx.invalid(path, v, error.message))
      }
    }
  }
}

/// A time of day (`"22:00"`): the first such time at or after `startsAt`.
private func timeOfDay(
  _ seconds: Int64?, _ text: String, _ v: JSONValue, _ path: String, _ ctx: DecodeContext
)
  -> SimTime?
{
  guard let seconds else {
    return nilAfter(
      ctx.invalid(path, v, "'\(text)' is not a time of day; hours go to 23, minutes and seconds to 59"))
  }
  guard let start = ctx.startOfDay else {
    return nilAfter(
      ctx.invalid(
        path, v,
        "a time of day like '\(text)' needs the scenario's start: add \"startsAt\": \"2026-03-01T21:00:00\" at the top level"
      ))
  }
  return TimeOfDay.instant(seconds, after: start)
}

extension ValueType where T == InstantSpec {
  /// An instant, or `"+30s"`: that long after the action that names it.
  static var instantOrRelative: ValueType<InstantSpec> {
    let expected = "an instant like \"1h\" or a delay after the action like \"+30s\""
    return ValueType(expected: expected) { v, path, ctx in
      do throws(LiteralError) {
        switch v.content {
        case .string(let s):
          if let clock = TimeOfDay.seconds(s) {
            return timeOfDay(clock, s, v, path, ctx).map(InstantSpec.absolute)
          }
          if let problem = TimeOfDay.malformed(s) { return nilAfter(ctx.invalid(path, v, problem)) }
          return try Literals.instant(s, allowRelative: true)
        case .number(let n): return .absolute(SimTime(try Literals.duration(seconds: n)))
        default: return nilAfter(ctx.wrongType(path, v, expected: expected))
        }
      } catch {
        return nilAfter(ctx.invalid(path, v, error.message))
      }
    }
  }
}

extension ValueType where T == DataRate {
  static var rate: ValueType<DataRate> {
    ValueType(expected: Literals.rateExample) { v, path, ctx in
      guard let s = v.string else {
        let hint = v.number.map { "; write the unit in a string, such as \"\($0.text)Mbps\"" } ?? ""
        return nilAfter(
          ctx.report(
            .type, path, at: v.position, "expected \(Literals.rateExample), found \(v.summary)\(hint)"))
      }
      do throws(LiteralError) {
        return try Literals.rate(s)
      } catch {
        return nilAfter(ctx.invalid(path, v, error.message))
      }
    }
  }
}

extension ValueType where T == SimURL {
  /// A URL the simulated server can serve: `http` or `https` only.
  static var httpURL: ValueType<SimURL> {
    let expected = "a URL like \"https://example.com/file.zip\""
    return ValueType(expected: expected) { v, path, ctx in
      guard let s = v.string else { return nilAfter(ctx.wrongType(path, v, expected: expected)) }
      guard let url = SimURL(s) else {
        return nilAfter(
          ctx.invalid(path, v, "'\(TerminalText.shortened(s))' is not a URL; expected \(expected)"))
      }
      guard url.isHTTP else {
        return nilAfter(
          ctx.invalid(
            path, v,
            "'\(TerminalText.shortened(s))' is not an http or https URL; the simulated server serves only those"
          ))
      }
      return url
    }
  }
}

extension ValueType {
  /// A string naming a case of `E`: `unknown interface 'wifii'; did you mean 'wifi'?`.
  static func enumeration(_ noun: String) -> ValueType<T>
  where T: RawRepresentable & CaseIterable, T.RawValue == String {
    let names = T.allCases.map(\.rawValue)
    let expected = "one of \(names.joined(separator: ", "))"
    return ValueType(expected: expected) { v, path, ctx in
      guard let s = v.string else { return nilAfter(ctx.wrongType(path, v, expected: expected)) }
      if let value = T(rawValue: s) { return value }
      let hint =
        Suggestion.didYouMean(s, among: names).map { "did you mean '\($0)'?" } ?? "expected \(expected)"
      return nilAfter(ctx.invalid(path, v, "unknown \(noun) '\(TerminalText.shortened(s))'; \(hint)"))
    }
  }

  /// The same type, or `null` (which decodes to `.some(nil)`).
  static func nullable<U>(_ inner: ValueType<U>) -> ValueType<U?> where T == U? {
    ValueType(expected: "\(inner.expected), or null") { v, path, ctx in
      if v.isNull { return .some(nil) }
      return inner.decode(v, path, ctx).map { .some($0) }
    }
  }

  /// A JSON array whose every element is decoded; elements that fail are left out after
  /// being reported, so the rest are still checked.
  static func array<U>(_ element: ValueType<U>) -> ValueType<[U]> where T == [U] {
    ValueType(expected: "an array of \(element.expected)") { v, path, ctx in
      guard let items = v.array else {
        return nilAfter(ctx.wrongType(path, v, expected: "an array of \(element.expected)"))
      }
      return items.enumerated().compactMap { i, item in element.decode(item, JSONPath.element(path, i), ctx) }
    }
  }

  /// A JSON array of objects, each read by `read` with its own `ObjectReader`.
  static func objects<E>(_ noun: String, _ read: @escaping (inout ObjectReader) -> E?) -> ValueType<[E]>
  where T == [E] {
    ValueType(expected: "an array of \(noun)") { v, path, ctx in
      guard let items = v.array else {
        return nilAfter(ctx.wrongType(path, v, expected: "an array of \(noun)"))
      }
      var out: [E] = []
      for (i, item) in items.enumerated() {
        guard var reader = ObjectReader(item, path: JSONPath.element(path, i), context: ctx, expected: noun)
        else {
          continue
        }
        if let value = read(&reader) { out.append(value) }
        reader.finish()
      }
      return out
    }
  }

  /// One JSON object read by `read`.
  static func object(_ noun: String, _ read: @escaping (inout ObjectReader) -> T?) -> ValueType<T> {
    ValueType(expected: noun) { v, path, ctx in
      guard var reader = ObjectReader(v, path: path, context: ctx, expected: noun) else { return nil }
      defer { reader.finish() }
      return read(&reader)
    }
  }
}

/// Lets a decoder report and give up in one expression: `return nilAfter(ctx.wrongType(...))`.
@inline(__always) func nilAfter<T>(_: Void) -> T? { nil }
