import SimKernel

extension ValueType where T == SimDuration {
  /// A reaction's `takes`: the app's own time in a callback, more than zero and at most a day
  /// (a wake gives about 30 s; a day is far past any watchdog, and keeps time sums in range).
  static var appTime: ValueType<SimDuration> {
    let expected = "a duration more than 0 and at most 1d, such as \"8s\""
    return ValueType(expected: expected) { v, path, ctx in
      guard let d = ValueType.duration.decode(v, path, ctx) else { return nil }
      guard d > .zero, d <= .days(1) else {
        return nilAfter(
          ctx.invalid(path, v, "the time a callback takes must be more than 0 and at most 1d (found \(d))"))
      }
      return d
    }
  }
}
