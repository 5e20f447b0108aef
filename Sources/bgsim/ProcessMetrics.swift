import Foundation

/// Measurements of this process for `bgsim bench`. Wall time and memory are read only here,
/// in the tool; the simulator itself never looks at a real clock.
enum ProcessMetrics {
  /// Seconds `body` took on the monotonic clock.
  static func wallSeconds<T>(_ body: () -> T) -> (T, Double) {
    let clock = ContinuousClock()
    let start = clock.now
    let result = body()
    let elapsed = clock.now - start
    let (seconds, attoseconds) = elapsed.components
    return (result, Double(seconds) + Double(attoseconds) / 1e18)
  }

  /// The peak resident set size (`VmHWM` of /proc/self/status) in bytes; nil where that file
  /// does not exist.
  static func peakResidentBytes() -> Int64? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      guard fields.count >= 3, let value = Int64(fields[1]) else { return nil }
      return fields[2] == "kB" ? value * 1024 : value
    }
    return nil
  }
}
