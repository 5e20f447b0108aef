#if !BGSIM_PORTABLE
  import BgsimFoundation
  import ExplorationKit
  import SimKernel

  /// `bgsim bench explore`: `ExploreBenchmarkWorld` (the example app's world with a bridged
  /// Foundation app shaped like the example's manager, its late state write included) explored
  /// as `Exploration.run` explores a Swift world: the baseline, every kill point, seeds 1-100,
  /// each run played twice, the findings shrunk, on 2 workers.
  enum BenchExplore {
    /// The seeds performance.md names.
    static let seeds = Array(UInt64(1)...100)
    /// Both cores of the project's machine.
    static let jobs = 2

    /// The world as the exploration sees it: the container, the app's account and its timers.
    static var subject: ExplorationSubject {
      ExplorationSubject(
        duration: ExploreBenchmarkWorld.duration, settle: .minutes(1),
        makeWorld: { ExploreBenchmarkWorld.make(seed: $0) }, container: { $0.appContainerDirectory },
        account: { ExploreBenchmarkWorld.account($0) }, pendingTimers: { $0.pendingAppTimers })
    }

    /// The whole exploration's wall time, its runs per second and what it found.
    static func run() -> BenchCommand.Measurement {
      let plan = ExplorationPlan(seeds: seeds, jobs: jobs, worldSeed: seeds[0])
      let (report, seconds) = ProcessMetrics.wallSeconds {
        Explorer.explore(subject, plan: plan, property: nil)
      }
      let rules = report.findings.map { "\"\($0.rule)\"" }.joined(separator: ",")
      return BenchCommand.Measurement(
        workload: "explore", events: report.runs, wallSeconds: seconds,
        peakRSSBytes: ProcessMetrics.peakResidentBytes(),
        extra: [
          ("app", "\"bridged\""), ("runs", "\(report.runs)"), ("killPoints", "\(report.killPoints)"),
          ("killPointsRun", "\(report.killPointsRun)"), ("seeds", "\(seeds.count)"), ("jobs", "\(jobs)"),
          ("findings", "\(report.findings.count)"), ("findingRules", "[\(rules)]"),
          ("runsPerSecond", String(format: "%.1f", seconds > 0 ? Double(report.runs) / seconds : 0)),
        ])
    }
  }
#endif
