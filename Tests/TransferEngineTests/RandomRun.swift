import Foundation
import SimKernel

@testable import TransferEngine

/// One seeded random run for the property tests: a task mix, a network and power timeline,
/// server changes and drop faults, cancels with resume-data reuse, and app lifecycle events,
/// all drawn from the seed and played on a `TestApp` with invariants checked after every event.
final class RandomRun {
  let seed: UInt64
  let sim: Simulation
  let app: TestApp
  /// Size of each version of each resource: URL, then validator ("" when it has none).
  private(set) var sizes: [SimURL: [String: Int64]] = [:]
  /// The configuration of the session each task was created in, by task name.
  private(set) var configurationOf: [String: SessionConfiguration] = [:]
  private var random: SeededGenerator
  private var nextName = 0
  private let downloads: [SimURL]
  private let uploads: [SimURL]
  static let horizon: Int64 = 7_200

  init(seed: UInt64) {
    self.seed = seed
    var random = SeededGenerator(seed: seed)
    let horizon = Self.horizon

    var network = [Step(at: .zero, Self.randomNetwork(&random, allowOffline: false))]
    for at in (0..<random.uniform(6...30)).map({ _ in random.uniform(1...Int(horizon) - 1) }).sorted() {
      network.append(Step(at: SimTime(.seconds(Int64(at))), Self.randomNetwork(&random, allowOffline: true)))
    }
    var power = [Step(at: .zero, PowerState(charging: random.nextUnit() < 0.5))]
    for at in (0..<random.uniform(0...2)).map({ _ in random.uniform(1...Int(horizon) - 1) }).sorted() {
      power.append(
        Step(
          at: SimTime(.seconds(Int64(at))),
          PowerState(charging: random.nextUnit() < 0.5, lowPowerMode: random.nextUnit() < 0.2)))
    }

    var resources: [ServerResource] = []
    var sizes: [SimURL: [String: Int64]] = [:]
    var downloads: [SimURL] = []
    for i in 0..<4 {
      let url = SimURL("https://\(i % 2 == 0 ? "a" : "b").example.com/d\(i)")!
      let size = Int64(random.uniform(100_000...40_000_000))
      let kind = random.nextUnit()
      let etag: String? = kind < 0.8 ? "v1" : nil
      resources.append(
        ServerResource(url: url, size: size, etag: etag, acceptsRanges: kind < 0.6 || kind >= 0.8))
      sizes[url] = [etag ?? "": size]
      downloads.append(url)
    }
    var uploads: [SimURL] = []
    for i in 0..<2 {
      let url = SimURL("https://\(i == 0 ? "a" : "b").example.com/u\(i)")!
      let body = random.nextUnit() < 0.4 ? 0 : Int64(random.uniform(1_000...8_000_000))
      resources.append(ServerResource(url: url, size: 0, responseBody: body, method: "POST"))
      uploads.append(url)
    }
    var changes: [ServerChange] = []
    var version = 1
    for at in (0..<random.uniform(0...5)).map({ _ in random.uniform(1...Int(horizon) - 1) }).sorted() {
      let versioned = downloads.filter { sizes[$0]!["v1"] != nil }
      guard !versioned.isEmpty else { break }
      let url = random.choice(versioned)
      version += 1
      let size = Int64(random.uniform(100_000...40_000_000))
      changes.append(
        ServerChange(at: SimTime(.seconds(Int64(at))), url: url, etag: .some("v\(version)"), size: size))
      sizes[url]!["v\(version)"] = size
    }
    var faults: [ServerFault] = []
    for _ in 0..<random.uniform(0...2) {
      faults.append(
        .dropConnection(
          at: SimTime(.seconds(Int64(random.uniform(1...Int(horizon) - 1)))),
          target: .host(random.nextUnit() < 0.5 ? "a.example.com" : "b.example.com"),
          times: random.uniform(1...3)))
    }

    var background = SessionConfiguration.background(withIdentifier: "B")
    background.allowsCellularAccess = random.nextUnit() < 0.75
    background.allowsConstrainedNetworkAccess = random.nextUnit() < 0.8
    background.isDiscretionary = random.nextUnit() < 0.15
    if random.nextUnit() < 0.2 {
      background.timeoutIntervalForResource = .minutes(Int64(random.uniform(20...90)))
    }
    if random.nextUnit() < 0.3 { background.httpMaximumConnectionsPerHost = random.uniform(1...3) }
    var foreground = SessionConfiguration.default(identifier: "D")
    foreground.waitsForConnectivity = random.nextUnit() < 0.5
    foreground.allowsCellularAccess = random.nextUnit() < 0.8

    self.app = TestApp([background, foreground])
    self.sim = Simulation(
      seed: seed, device: DeviceModel(network: network, power: power),
      server: ServerModel(resources: resources, changes: changes, faults: faults), policy: .defaults)
    self.sizes = sizes
    self.downloads = downloads
    self.uploads = uploads
    self.random = random
    sim.checksInvariants = true
    sim.install(app)
    planActions()
  }

  private static func randomNetwork(_ random: inout SeededGenerator, allowOffline: Bool) -> NetworkState {
    let roll = random.nextUnit()
    let down = DataRate.megabitsPerSecond(random.uniform(0.2...8.0))
    let up = DataRate.megabitsPerSecond(random.uniform(0.1...2.0))
    let latency = SimDuration.milliseconds(Int64(random.uniform(5...100)))
    if allowOffline && roll < 0.2 { return .offline }
    if roll < 0.45 { return NetworkState(interface: .cellular, down: down, up: up, latency: latency) }
    return NetworkState(interface: .wifi, down: down, up: up, latency: latency, constrained: roll > 0.9)
  }

  private func at(_ seconds: Int, _ action: @escaping (RandomRun, Simulation) -> Void) {
    sim.schedule(at: SimTime(.seconds(Int64(seconds)))) { [unowned self] sim in action(self, sim) }
  }

  private func planActions() {
    let half = Int(Self.horizon / 2)
    at(0) { run, sim in sim.launchApp() }
    for _ in 0..<random.uniform(3...12) { at(random.uniform(0...half)) { run, _ in run.createTask() } }
    for _ in 0..<random.uniform(0...3) {
      let start = random.uniform(1...half)
      at(start) { _, sim in sim.backgroundApp() }
      let roll = random.nextUnit()
      let end = start + random.uniform(6...1_800)
      if roll < 0.1 {
        at(end) { _, sim in sim.forceQuitApp() }
      } else if roll < 0.6 {
        at(end) { _, sim in sim.terminateApp() }
      }
      if random.nextUnit() < 0.8 { at(end + random.uniform(10...1_800)) { _, sim in sim.launchApp() } }
    }
  }

  private func name() -> String {
    nextName += 1
    return "t\(nextName)"
  }

  private func liveSession(_ identifier: String) -> SimURLSession? {
    guard sim.appState.isRunning, let session = app.sessions[identifier], !session.isInvalidated else {
      return nil
    }
    return session
  }

  private func createTask() {
    guard let session = liveSession(random.nextUnit() < 0.7 ? "B" : "D") else { return }
    let task: SimURLSessionTask?
    if random.nextUnit() < 0.75 {
      task = try? session.downloadTask(with: random.choice(downloads).string, name: name())
    } else {
      let url = random.choice(uploads).string
      let size = Int64(random.uniform(10_000...2_000_000))
      task =
        random.nextUnit() < 0.85
        ? try? session.uploadTask(with: url, fromFileOfSize: size, name: name())
        : try? session.uploadTask(with: url, fromDataOfSize: size, name: name())
    }
    guard let task else { return }
    if session.configuration.kind == .background && random.nextUnit() < 0.15 {
      task.earliestBeginDate = sim.now + .seconds(Int64(random.uniform(1...600)))
    }
    start(task, in: session)
    if random.nextUnit() < 0.4 {
      sim.schedule(at: sim.now + .seconds(Int64(random.uniform(1...120)))) { [unowned self] _ in cancel(task)
      }
    }
    if random.nextUnit() < 0.15 { suspendLater(task) }
  }

  /// The app suspends `task` while it runs, and mostly resumes it later (sometimes twice over,
  /// as suspensions nest), so the invariants see suspended tasks among the others.
  private func suspendLater(_ task: SimURLSessionTask) {
    let times = random.nextUnit() < 0.2 ? 2 : 1
    let resumes = random.nextUnit() < 0.8 ? times : times - 1
    let at = sim.now + .seconds(Int64(random.uniform(1...60)))
    sim.schedule(at: at) { [unowned self] sim in
      guard sim.appState.isRunning else { return }
      for _ in 0..<times { task.suspend() }
      for _ in 0..<resumes {
        sim.schedule(at: sim.now + .seconds(Int64(random.uniform(1...600)))) { sim in
          if sim.appState.isRunning { task.resume() }
        }
      }
    }
  }

  private func start(_ task: SimURLSessionTask, in session: SimURLSession) {
    configurationOf[task.name] = session.configuration
    task.resume()
  }

  /// Cancels `task` if the app runs and it has not ended; mostly asks for resume data and later
  /// downloads from it, sometimes twice (reuse).
  private func cancel(_ task: SimURLSessionTask) {
    guard sim.appState.isRunning, task.state != .completed else { return }
    guard random.nextUnit() < 0.7 else {
      task.cancel()
      return
    }
    var resumeData: Data?
    task.cancel { resumeData = $0 }
    guard let data = resumeData else { return }
    let sessionIdentifier = task.sessionIdentifier
    let uses = random.nextUnit() < 0.3 ? 2 : 1
    for _ in 0..<uses {
      let delay = random.uniform(1...300)
      sim.schedule(at: sim.now + .seconds(Int64(delay))) { [unowned self] _ in
        // Now and then the app hands back damaged data: the task must fail, not trap.
        let handed = random.nextUnit() < 0.05 ? data.dropLast(1) : data
        guard let session = liveSession(sessionIdentifier),
          let task = try? session.downloadTask(withResumeData: handed, name: name())
        else { return }
        start(task, in: session)
      }
    }
  }

  /// Plays the run to twice the horizon.
  func run() {
    sim.run(until: SimTime(.seconds(2 * Self.horizon)))
    sim.checkFinalInvariants()
  }
}
