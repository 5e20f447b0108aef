import CalibrationKit
import Foundation
import SimKernel

extension BenchCommand {
  /// The `calibrate` workload: a 30-wake log fitted over three knobs on two workers (target:
  /// under 30 s on the 2-core machine). `events` counts the simulations run.
  static func calibrate() -> Measurement {
    let request = CalibrationBenchmark.request(jobs: 2)
    let (result, seconds) = ProcessMetrics.wallSeconds { try? Calibration.run(request) }
    var extra: [(String, String)] = [("jobs", "2"), ("wakes", "\(CalibrationBenchmark.wakes)")]
    if let result {
      extra.append(("observedEvents", "\(result.observed.events.count)"))
      for (fit, truth) in zip(result.knobs, CalibrationBenchmark.hidden) {
        guard fit.status == .identified else {
          extra.append((fit.knob.key, JSONText.quoted(fit.status.rawValue)))
          continue
        }
        extra.append((fit.knob.key, JSONText.quoted(fit.knob.display(fit.value))))
        let error = abs(fit.value - truth.value) / truth.value * 100
        extra.append((fit.knob.key + "ErrorPercent", String(format: "%.3f", error)))
      }
    }
    return Measurement(
      workload: "calibrate", events: result?.simulations ?? 0, wallSeconds: seconds,
      peakRSSBytes: ProcessMetrics.peakResidentBytes(), extra: extra)
  }
}
