import Foundation
import SweepKit
import TransferEngine

/// performance.md's `sweep`: 64 independent fleet runs of 1,000 tasks through the same
/// `ParallelRunner` as `bgsim sweep`, on one worker thread and on two, repeated and reported as
/// medians, with what the machine was doing at the time.
///
/// A speed-up is only meaningful when the machine had the cores to give: on a 2-core machine
/// with another build running, two workers share one core and the figure says nothing about
/// bgsim. So the load average is read before and during the passes, the CPU time the 2-job
/// passes actually got is measured, and a warning says when the figure is not to be trusted.
enum BenchSweep {
  static func run(seeds: Int = 64, repetitions: Int = 5, jobs: Int = 2) -> BenchCommand.Measurement {
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let loadBefore = ProcessMetrics.loadAverage()
    func pass(_ jobs: Int) -> (outcomes: [FleetBenchmark.Outcome], wall: Double, cpu: Double) {
      let cpuStart = ProcessMetrics.cpuSeconds()
      let (outcomes, wall) = ProcessMetrics.wallSeconds {
        ParallelRunner.map(count: seeds, jobs: jobs) {
          FleetBenchmark.run(tasks: 1_000, seed: UInt64($0 + 1))
        }
      }
      return (outcomes, wall, ProcessMetrics.cpuSeconds() - cpuStart)
    }
    // Warm up (page faults, heap growth) so the first timed pass is not charged for them.
    _ = ParallelRunner.map(count: 2, jobs: 2) { FleetBenchmark.run(tasks: 1_000, seed: UInt64($0 + 1)) }
    var serial: [Double] = []
    var parallel: [Double] = []
    var coresUsed: [Double] = []
    var serialCPU: [Double] = []
    var parallelCPU: [Double] = []
    var loadsDuring: [Double] = []
    var identical = true
    var events = 0
    // Interleaved, so that a change in the machine's load hits both kinds of pass alike.
    for _ in 0..<repetitions {
      let one = pass(1)
      let many = pass(jobs)
      identical = identical && one.outcomes == many.outcomes
      events = many.outcomes.reduce(0) { $0 + $1.events }
      serial.append(one.wall)
      parallel.append(many.wall)
      coresUsed.append(many.wall > 0 ? many.cpu / many.wall : 0)
      serialCPU.append(one.cpu)
      parallelCPU.append(many.cpu)
      if let load = ProcessMetrics.loadAverage() { loadsDuring.append(load) }
    }
    if !identical {
      Console.error(
        "bgsim: internal inconsistency: the sweep benchmark's outcomes differ between 1 and \(jobs) jobs")
    }
    let oneJob = median(serial)
    let manyJobs = median(parallel)
    let speedup = manyJobs > 0 ? oneJob / manyJobs : 0
    let gotCores = median(coresUsed)
    let loadDuring = loadsDuring.max()
    // Busy: other work held a core before we started, or our workers did not get their cores.
    let busyBefore = loadBefore.map { $0 > Double(max(0, cores - jobs)) + 0.5 } ?? false
    let starved = gotCores < Double(jobs) * 0.9
    let meaningful = !busyBefore && !starved && cores >= jobs
    if !meaningful {
      let before = loadBefore.map { String(format: "%.2f", $0) } ?? "unknown"
      Console.error(
        "bgsim: warning: the machine was busy (load average \(before) before the run on \(cores) cores; "
          + String(format: "the %d-job passes got %.2f cores of %d)", jobs, gotCores, jobs)
          + ": the speed-up measures the machine, not bgsim; measure again when it is idle")
    }
    return BenchCommand.Measurement(
      workload: "sweep", events: events, wallSeconds: manyJobs,
      peakRSSBytes: ProcessMetrics.peakResidentBytes(),
      extra: [
        ("runs", "\(seeds)"), ("tasksPerRun", "1000"), ("jobs", "\(jobs)"), ("repetitions", "\(repetitions)"),
        ("wallSecondsOneJob", fixed(oneJob)), ("speedup", fixed(speedup, 2)),
        ("parallelEfficiency", fixed(speedup / Double(jobs), 2)),
        ("wallSecondsOneJobAll", "[" + serial.map { fixed($0) }.joined(separator: ", ") + "]"),
        ("wallSecondsAll", "[" + parallel.map { fixed($0) }.joined(separator: ", ") + "]"),
        ("coresUsed", fixed(gotCores, 2)), ("cores", "\(cores)"),
        // CPU time is what contention between the workers costs, and unlike wall time it holds
        // up on a busy machine: the 2-job pass should need no more CPU than the 1-job pass.
        ("cpuSecondsOneJob", fixed(median(serialCPU))), ("cpuSeconds", fixed(median(parallelCPU))),
        ("cpuRatio", fixed(median(zip(parallelCPU, serialCPU).map { $1 > 0 ? $0 / $1 : 0 }), 2)),
        ("loadBefore", loadBefore.map { fixed($0, 2) } ?? "null"),
        ("loadDuring", loadDuring.map { fixed($0, 2) } ?? "null"),
        ("meaningful", meaningful ? "true" : "false"), ("identicalOutcomes", identical ? "true" : "false"),
      ])
  }

  /// A figure with `digits` decimals, as the benchmarks print them.
  static func fixed(_ x: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", x) }

  /// The middle value (the lower of the two middle ones for an even count).
  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[(sorted.count - 1) / 2]
  }
}
