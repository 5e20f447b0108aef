import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Measurements of this process and machine for `bgsim bench` and `bgsim sweep`. Wall time,
/// CPU time, memory and load are read only here, in the tool; the simulator itself never
/// looks at a real clock.
enum ProcessMetrics {
  /// Seconds `body` took on the monotonic clock.
  static func wallSeconds<T>(_ body: () throws -> T) rethrows -> (T, Double) {
    let clock = ContinuousClock()
    let start = clock.now
    let result = try body()
    let elapsed = clock.now - start
    let (seconds, attoseconds) = elapsed.components
    return (result, Double(seconds) + Double(attoseconds) / 1e18)
  }

  /// `getrusage` of this process, which both Linux and Darwin have.
  private static func usage() -> rusage? {
    var usage = rusage()
    #if canImport(Darwin)
      let who = RUSAGE_SELF
    #else
      let who = RUSAGE_SELF.rawValue  // Glibc imports it as an enum case
    #endif
    return getrusage(Int32(who), &usage) == 0 ? usage : nil
  }

  /// CPU seconds (user and system, all threads) this process has used so far.
  static func cpuSeconds() -> Double {
    guard let usage = usage() else { return 0 }
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
  }

  /// The peak resident set size of this process in bytes; nil if the call fails. `ru_maxrss`
  /// is in kilobytes on Linux and in bytes on Darwin.
  static func peakResidentBytes() -> Int64? {
    guard let usage = usage() else { return nil }
    let maxRSS = Int64(usage.ru_maxrss)
    #if canImport(Darwin)
      return maxRSS
    #else
      return maxRSS.multipliedReportingOverflow(by: 1024).overflow ? nil : maxRSS * 1024
    #endif
  }

  /// The machine's 1-minute load average (runnable threads, averaged), nil if unknown.
  static func loadAverage() -> Double? {
    var loads = [Double](repeating: 0, count: 3)
    guard getloadavg(&loads, 3) >= 1 else { return nil }
    return loads[0]
  }
}
