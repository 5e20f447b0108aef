import SimKernel

/// performance.md's `share N`: N concurrent transfers sharing one link, driven through the whole
/// engine, to show that each change of the link, arrival or completion costs O(log N).
///
/// The workload, all from the seed:
/// - one app in the foreground with one background session whose
///   `httpMaximumConnectionsPerHost` does not bind, so every resumed task transfers at once;
/// - 256 resources on one host, sizes uniform from 100 KB to 10 MB;
/// - N downloads arriving 1 ms apart, then, each time one completes, the app starts a new one
///   (in `didCompleteWithError`) until 2N have been started: about N transfers share the link
///   for most of the run, then the last N drain;
/// - the Wi-Fi downlink changing rate (20 to 100 Mbps) every second for the whole run, which
///   re-rates every transfer.
///
/// The run does not record its trace. Wall time is measured by the caller; divide it by
/// `Outcome.events` for the time per event.
public enum ShareBenchmark {
  /// What one run did.
  public struct Outcome: Hashable, Sendable {
    /// N, the number of concurrent transfers asked for.
    public var transfers: Int
    /// Engine events handled (`Simulation.processedEvents`).
    public var events: Int
    /// Tasks the run created.
    public var tasksCreated: Int
    /// Tasks that finished by the end of the run.
    public var tasksFinished: Int
    /// Network steps applied (each re-rates every running transfer).
    public var linkChanges: Int
    /// The most tasks started and not yet completed at one time.
    public var peakConcurrent: Int
    /// Simulated time of the last completion.
    public var simulatedEnd: SimTime
  }

  /// Runs the workload with `transfers` (N) concurrent downloads.
  public static func run(transfers n: Int, seed: UInt64 = 1) -> Outcome {
    precondition(n > 0, "share needs at least one transfer")
    var random = SeededGenerator(seed: seed)
    let host = "https://share.example.com"
    var resources: [ServerResource] = []
    for i in 0..<256 {
      let size = Int64(random.uniform(100_000...10_000_000))
      resources.append(ServerResource(url: SimURL("\(host)/r\(i)")!, size: size, etag: "v1"))
    }
    let total = 2 * n
    var picks: [Int] = []
    picks.reserveCapacity(total)
    var totalBytes: Int64 = 0
    for _ in 0..<total {
      let pick = random.uniform(0...255)
      picks.append(pick)
      totalBytes += resources[pick].size
    }
    let urls = resources.map(\.url.string)

    // Rate steps every second for the expected duration at the mean rate (60 Mbps), plus margin.
    let expectedSeconds = Double(totalBytes) / (60e6 / 8)
    let stepCount = Int(expectedSeconds * 1.5) + 60
    var steps: [Step<NetworkState>] = []
    steps.reserveCapacity(stepCount)
    for i in 0..<stepCount {
      let down = DataRate.megabitsPerSecond(random.uniform(20.0...100.0))
      steps.append(
        Step(
          at: SimTime(.seconds(Int64(i))),
          NetworkState(interface: .wifi, down: down, up: .megabitsPerSecond(10), latency: .milliseconds(10))))
    }

    var configuration = SessionConfiguration.background(withIdentifier: "share")
    configuration.httpMaximumConnectionsPerHost = Int.max
    configuration.timeoutIntervalForResource = .days(365)
    let app = BenchmarkApp(configuration: configuration)
    var created = 0
    var inFlight = 0
    var peak = 0
    var finished = 0
    var lastCompletion = SimTime.zero
    func start(_ app: BenchmarkApp) {
      guard created < total, let session = app.session else { return }
      let task = try! session.downloadTask(with: urls[picks[created]])
      created += 1
      inFlight += 1
      peak = max(peak, inFlight)
      task.resume()
    }
    func arrive(_ context: AppContext) {
      start(app)
      if created < n { context.after(.milliseconds(1), arrive) }
    }
    app.onLaunch = { _, context, _ in arrive(context) }
    app.onComplete = { app, _, error in
      inFlight -= 1
      if error == nil { finished += 1 }
      lastCompletion = max(lastCompletion, app.session?.simulationForTests.now ?? .zero)
      start(app)
    }

    let sim = Simulation(
      seed: seed, device: DeviceModel(network: steps), server: ServerModel(resources: resources),
      policy: .defaults,
      recordsTrace: false)
    sim.budget = .unlimited  // the benchmark measures the engine; its size is fixed
    sim.install(app)
    sim.run(until: .zero)
    sim.launchApp()
    sim.run(until: SimTime(.days(300)))
    app.onLaunch = nil  // The hooks capture the app: break the cycle.
    app.onComplete = nil
    return Outcome(
      transfers: n, events: sim.processedEvents, tasksCreated: created, tasksFinished: finished,
      linkChanges: steps.count, peakConcurrent: peak, simulatedEnd: lastCompletion)
  }
}
