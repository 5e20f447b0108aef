import Foundation
import SimKernel

/// Maps simulated time to x positions on the report's timeline.
///
/// **Why not linear.** A run may span 7 days while everything interesting happens in its first
/// seconds, or an hour's wait may sit between two bursts of sub-second events; a linear axis
/// would squeeze those bursts into one pixel. A log axis distorts the other way and cannot show
/// 0. So the scale is *piecewise linear between event instants*: the breakpoints are 0, every
/// distinct instant of the trace, and the end of the run. Each gap between two consecutive
/// breakpoints gets a minimum width (so every state change stays visible and clickable) plus a
/// share of the remaining width proportional to `log(1 + gap / 1s)` (so an hour still looks
/// longer than a minute, and a week longer than an hour, without a week eating the page).
/// Inside a gap time is linear, so ticks fall where they belong and labels read true times;
/// the axis labels, not distances, are what to read durations from.
struct TimeScale {
  /// Breakpoint instants in nanoseconds, strictly increasing, starting at 0.
  private let times: [Int64]
  /// The x of each breakpoint.
  private let xs: [Double]
  let left: Double
  let width: Double
  /// The instant the scale ends at (the run's end).
  let end: SimTime

  /// - Parameters:
  ///   - instants: the instants of the trace, in any order, duplicates allowed.
  ///   - end: the end of the run; instants after it extend the scale.
  ///   - left: x of time 0.
  ///   - width: pixels from time 0 to the end.
  /// - Complexity: O(n log n) for n instants.
  init(instants: [SimTime], end: SimTime, left: Double, width: Double) {
    var points = Set(instants.map(\.nanoseconds).filter { $0 > 0 })
    points.insert(max(end.nanoseconds, 0))
    points.insert(0)
    let times = points.sorted()
    let gaps = max(times.count - 1, 1)
    let minimum = min(4.0, 0.3 * width / Double(gaps))
    let weights = zip(times, times.dropFirst()).map { a, b in
      log1p(Double(b - a) / 1e9)
    }
    let totalWeight = weights.reduce(0, +)
    let spare = max(width - minimum * Double(weights.count), 0)
    var xs = [left]
    var x = left
    for weight in weights {
      x += minimum + (totalWeight > 0 ? spare * weight / totalWeight : 0)
      xs.append(x)
    }
    self.times = times
    self.xs = xs
    self.left = left
    self.width = width
    self.end = SimTime(nanoseconds: times.last ?? 0)
  }

  /// The x of an instant; instants past the end map to the right edge.
  /// - Complexity: O(log n) in the number of breakpoints.
  func x(_ time: SimTime) -> Double {
    let t = time.nanoseconds
    if t <= 0 || times.count < 2 { return left }
    if t >= times[times.count - 1] { return xs[xs.count - 1] }
    var low = 0
    var high = times.count - 1
    while high - low > 1 {
      let mid = (low + high) / 2
      if times[mid] <= t { low = mid } else { high = mid }
    }
    let fraction = Double(t - times[low]) / Double(times[high] - times[low])
    return xs[low] + fraction * (xs[high] - xs[low])
  }

  /// The right edge: the x of the end of the run.
  var right: Double { xs.last ?? left }

  /// Round instants to label the axis with (`0s`, `30s`, `10m`, `1h`, `2d`), at least
  /// `spacing` pixels apart.
  ///
  /// Coarse steps are placed first so that the roundest instants win; finer steps then fill
  /// the stretched parts of the axis (the busy first seconds get `1s`, `5s` ticks while a quiet
  /// week gets `1d`). A step is tried inside a gap only where its ticks would not overlap, so
  /// the work stays proportional to the pixels, not to the run's length.
  func ticks(spacing: Double) -> [SimTime] {
    var chosen: [(x: Double, time: SimTime)] = [(left, .zero)]
    for step in Self.steps.reversed() {
      for index in 0..<(times.count - 1) {
        let a = times[index]
        let b = times[index + 1]
        let first = (a / step + 1) * step
        guard first <= b else { continue }
        let count = (b - first) / step + 1
        let pixelsPerStep = (xs[index + 1] - xs[index]) * Double(step) / Double(b - a)
        guard count <= 2 || pixelsPerStep >= spacing else { continue }
        var t = first
        while t <= b {
          let time = SimTime(nanoseconds: t)
          let x = self.x(time)
          if chosen.allSatisfy({ abs($0.x - x) >= spacing }) { chosen.append((x, time)) }
          t += step
        }
      }
    }
    return chosen.map(\.time).sorted()
  }

  /// Tick steps from 1 ms to 7 days, each a round number in its unit.
  static let steps: [Int64] = {
    let ms: Int64 = 1_000_000
    let s: Int64 = 1_000_000_000
    return [
      ms, 10 * ms, 100 * ms, 500 * ms, s, 5 * s, 10 * s, 30 * s, 60 * s, 5 * 60 * s, 10 * 60 * s,
      30 * 60 * s, 3_600 * s, 3 * 3_600 * s, 6 * 3_600 * s, 12 * 3_600 * s, 86_400 * s, 7 * 86_400 * s,
    ]
  }()
}
