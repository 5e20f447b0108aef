import SimKernel

/// performance.md's `fleet`: the whole engine over a simulated day of one app's life.
///
/// The workload, all drawn from the seed:
/// - **Tasks.** At its first launch (t = 0, by the user) the app makes one background session and
///   starts all its downloads at once (10,000 by default). They fetch distinct resources spread over
///   4 hosts (so at most 16 run at a time under the default 4 connections per host), sizes uniform
///   from 100 KB to 50 MB. 90% of the resources send an ETag and accept byte ranges, so an
///   interrupted download continues from its offset; the other 10% do not, so it restarts from 0.
/// - **Network.** A new step every 10 minutes for the day (144 steps): Wi-Fi with probability
///   0.7 (20 to 80 Mbps down, 5 to 20 up, 10 to 40 ms latency), else cellular (5 to 25 Mbps down,
///   1 to 5 up, 40 to 100 ms, expensive). Consecutive Wi-Fi or cellular steps only change the
///   rates; a switch between them interrupts every running transfer, which retries after its
///   backoff. Six of the slots (never the first) also have a short outage: no interface from 3
///   minutes into the slot for 30 s to 3 minutes, then the slot's network again.
/// - **App.** 50 cycles of 28 minutes: in the foreground for the first 10 minutes (so progress is
///   reported), then sent to the background (suspended 5 s later), terminated by the system at
///   12 minutes, and launched again by the user at the start of the next cycle; events that
///   piled up while it was gone are delivered then. If the session drains while the app is away,
///   the system relaunches it in the background instead (a wake), and the app recreates its
///   session and calls the completion handler after `didFinishEvents`.
///
/// The run does not record its trace and stops at 24 h whether or not every task has finished.
public enum FleetBenchmark {
  /// What one run did.
  public struct Outcome: Hashable, Sendable {
    /// Engine events handled (`Simulation.processedEvents`).
    public var events: Int
    /// Tasks the app created over the day.
    public var tasksCreated: Int
    /// Tasks that completed without a transport error.
    public var tasksFinished: Int
    /// Tasks that completed with a transport error.
    public var tasksFailed: Int
    /// Times the system terminated the app.
    public var terminations: Int
    /// Launches by the user after the first.
    public var userRelaunches: Int
    /// Relaunches by the system in the background (wakes).
    public var backgroundLaunches: Int
    /// Simulated time of the last event processed.
    public var simulatedEnd: SimTime
  }

  /// Simulated length of the run.
  public static let day = SimDuration.days(1)
  /// Length of one cycle of the fleet's day: open the app, start downloads, leave, be terminated.
  public static let cycle = SimDuration.minutes(28)
  /// Cycles in the day (50 of `cycle` each).
  public static let cycles = 50

  /// Runs the fleet with 10,000 tasks.
  public static func run(seed: UInt64 = 1) -> Outcome { run(tasks: 10_000, seed: seed) }

  /// Runs the fleet with `count` tasks (`sweep` uses 1,000).
  public static func run(tasks count: Int, seed: UInt64 = 1) -> Outcome {
    var random = SeededGenerator(seed: seed)
    let resources = makeResources(count: count, random: &random)
    let network = makeNetwork(random: &random)

    let app = BenchmarkApp(configuration: .background(withIdentifier: "fleet"))
    var created = 0
    var finished = 0
    var failed = 0
    app.onLaunch = { app, _, _ in
      guard created == 0, let session = app.session else { return }
      for resource in resources {
        let task = try! session.downloadTask(with: resource.url.string)
        created += 1
        task.resume()
      }
    }
    app.onComplete = { _, _, error in
      if error == nil { finished += 1 } else { failed += 1 }
    }

    let sim = Simulation(
      seed: seed, device: DeviceModel(network: network), server: ServerModel(resources: resources),
      policy: .defaults, recordsTrace: false)
    sim.budget = .unlimited  // the benchmark measures the engine; its size is fixed
    sim.install(app)
    var terminations = 0
    for k in 0..<cycles {
      let start = SimTime(cycle * Int64(k))
      if k > 0 { sim.schedule(at: start) { $0.launchApp() } }
      sim.schedule(at: start + .minutes(10)) { $0.backgroundApp() }
      sim.schedule(at: start + .minutes(12)) { sim in
        if sim.appState != .notRunning { terminations += 1 }
        sim.terminateApp()
      }
    }
    sim.schedule(at: SimTime(cycle * Int64(cycles))) { $0.launchApp() }
    sim.run(until: .zero)
    sim.launchApp()
    sim.run(until: SimTime(day))
    let outcome = Outcome(
      events: sim.processedEvents, tasksCreated: created, tasksFinished: finished, tasksFailed: failed,
      terminations: terminations, userRelaunches: app.userLaunches - 1,
      backgroundLaunches: app.backgroundLaunches,
      simulatedEnd: sim.now)
    app.onLaunch = nil  // The hooks capture the app: break the cycle.
    app.onComplete = nil
    return outcome
  }

  /// The fleet's resources (shared with the bridge's fleet, `bgsim bench bridge`).
  public static func makeResources(count: Int, random: inout SeededGenerator) -> [ServerResource] {
    (0..<count).map { i in
      let size = Int64(random.uniform(100_000...50_000_000))
      let resumable = random.nextUnit() < 0.9
      return ServerResource(
        url: SimURL("https://cdn\(i % 4).fleet.example.com/item/\(i)")!, size: size,
        etag: resumable ? "v1" : nil, acceptsRanges: resumable)
    }
  }

  /// The fleet's day of network steps.
  public static func makeNetwork(random: inout SeededGenerator) -> [Step<NetworkState>] {
    let slots = Int(day.nanoseconds / SimDuration.minutes(10).nanoseconds)
    var outageSlots: Set<Int> = []
    while outageSlots.count < 6 { outageSlots.insert(random.uniform(1...(slots - 1))) }
    var steps: [Step<NetworkState>] = []
    for slot in 0..<slots {
      let at = SimTime(.minutes(10 * Int64(slot)))
      let state: NetworkState
      if random.nextUnit() < 0.7 {
        state = NetworkState(
          interface: .wifi, down: .megabitsPerSecond(random.uniform(20.0...80.0)),
          up: .megabitsPerSecond(random.uniform(5.0...20.0)),
          latency: .milliseconds(Int64(random.uniform(10...40))))
      } else {
        state = NetworkState(
          interface: .cellular, down: .megabitsPerSecond(random.uniform(5.0...25.0)),
          up: .megabitsPerSecond(random.uniform(1.0...5.0)),
          latency: .milliseconds(Int64(random.uniform(40...100))))
      }
      steps.append(Step(at: at, state))
      if outageSlots.contains(slot) {
        let down = at + .minutes(3)
        steps.append(Step(at: down, .offline))
        steps.append(Step(at: down + .seconds(Int64(random.uniform(30...180))), state))
      }
    }
    return steps
  }
}
