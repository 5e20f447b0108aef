import SimKernel

// `SimTime` and `SimDuration` arithmetic for a file that imports only `BgsimFoundation` (and
// Foundation). The re-export (`Exports.swift`) imports the two types by name, to keep the rest of
// SimKernel (`Scheduler`, `EventQueue`, names an app may have) out of the app's namespace; but a
// scoped import brings no operator with the type, so `SimTime(.minutes(10) + .seconds(15))` did
// not type-check there (Swift then tried `Duration`'s `+`). These forward to SimKernel's own;
// `@_disfavoredOverload` keeps SimKernel's the ones chosen wherever both are visible.

extension SimDuration {
  /// The sum of two durations (SimKernel's `+`).
  @_disfavoredOverload @inlinable public static func + (a: SimDuration, b: SimDuration) -> SimDuration {
    SimDuration(nanoseconds: a.nanoseconds &+ b.nanoseconds)
  }
  /// The difference of two durations (SimKernel's `-`).
  @_disfavoredOverload @inlinable public static func - (a: SimDuration, b: SimDuration) -> SimDuration {
    SimDuration(nanoseconds: a.nanoseconds &- b.nanoseconds)
  }
  /// The duration `k` times over, capped at the largest duration (SimKernel's `*`).
  @_disfavoredOverload @inlinable public static func * (a: SimDuration, k: Int64) -> SimDuration {
    let (product, overflow) = a.nanoseconds.multipliedReportingOverflow(by: k)
    return SimDuration(nanoseconds: overflow ? Int64.max : product)
  }
}

extension SimTime {
  /// The time `d` after `a`, capped at the end of time (SimKernel's `+`).
  @_disfavoredOverload @inlinable public static func + (a: SimTime, d: SimDuration) -> SimTime {
    let (sum, overflow) = a.nanoseconds.addingReportingOverflow(d.nanoseconds)
    return SimTime(nanoseconds: overflow ? Int64.max : sum)
  }
  /// The duration from `b` to `a` (SimKernel's `-`).
  @_disfavoredOverload @inlinable public static func - (a: SimTime, b: SimTime) -> SimDuration {
    SimDuration(nanoseconds: a.nanoseconds &- b.nanoseconds)
  }
}
