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

  /// The peak resident set size of this process in bytes, from `getrusage`, which both Linux
  /// and Darwin have; nil if the call fails. `ru_maxrss` is in kilobytes on Linux and in bytes
  /// on Darwin.
  static func peakResidentBytes() -> Int64? {
    var usage = rusage()
    #if canImport(Darwin)
      let who = RUSAGE_SELF
    #else
      let who = RUSAGE_SELF.rawValue  // Glibc imports it as an enum case
    #endif
    guard getrusage(Int32(who), &usage) == 0 else { return nil }
    let maxRSS = Int64(usage.ru_maxrss)
    #if canImport(Darwin)
      return maxRSS
    #else
      return maxRSS.multipliedReportingOverflow(by: 1024).overflow ? nil : maxRSS * 1024
    #endif
  }
}
