import Dispatch
import Foundation
import TransferEngine

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `bgsim bench bridge`: the engine's `fleet` workload (same resources, network and lifecycle
/// from the same seed) driven by an app written against Foundation through the bridge, so that
/// its wall time over `FleetBenchmark`'s is the bridge's own overhead.
public enum BridgeFleetBenchmark {
  /// What one run did, in the same counts as `FleetBenchmark.Outcome`, so the two can be compared.
  public struct Outcome: Hashable, Sendable {
    /// Engine events handled (`Simulation.processedEvents`).
    public var events: Int
    /// Tasks the Foundation app created over the day.
    public var tasksCreated: Int
    /// Tasks that completed without a transport error.
    public var tasksFinished: Int
    /// Tasks that completed with a transport error.
    public var tasksFailed: Int
    /// Relaunches by the system in the background (wakes).
    public var backgroundLaunches: Int
    /// Wall time the app spent in its own file work (`removeItem` and `moveItem` of each
    /// delivered file): app code running for real, which the engine's app does in memory, so
    /// `bgsim bench bridge` can tell it apart from the bridge's own cost.
    public var appFileSeconds: Double
    /// Delegate calls the bridge made (each a hand-off to the delegate queue and a wait for it),
    /// the divisor of the bridge's cost per call.
    public var delegateCalls: Int
    /// `urlSessionDidFinishEvents` calls, each of which sends the completion handler to
    /// `DispatchQueue.main`.
    public var finishEventsCalls: Int
    /// Completion handlers that ran at the simulated instant of their `urlSessionDidFinishEvents`
    /// (the main queue drained before time moved), whichever thread ran the simulation.
    public var handlersCalledInTime: Int
  }

  /// Runs the fleet's day with `count` tasks through the bridge, from `seed`.
  public static func run(tasks count: Int = 10_000, seed: UInt64 = 1) -> Outcome {
    var random = SeededGenerator(seed: seed)
    let resources = FleetBenchmark.makeResources(count: count, random: &random)
    let network = FleetBenchmark.makeNetwork(random: &random)
    let counts = FleetCounts()
    let sim = Simulation(
      seed: seed, device: DeviceModel(network: network), server: ServerModel(resources: resources),
      policy: .defaults, recordsTrace: false)
    let urls = resources.compactMap { URL(string: $0.url.string) }
    sim.installApp { application in FleetAppDelegate(application, urls: urls, counts: counts) }
    for k in 0..<FleetBenchmark.cycles {
      let start = SimTime(FleetBenchmark.cycle * Int64(k))
      if k > 0 { sim.schedule(at: start) { $0.launchApp() } }
      sim.schedule(at: start + .minutes(10)) { $0.backgroundApp() }
      sim.schedule(at: start + .minutes(12)) { $0.terminateApp() }
    }
    sim.schedule(at: SimTime(FleetBenchmark.cycle * Int64(FleetBenchmark.cycles))) { $0.launchApp() }
    sim.launchApp()
    sim.run(until: SimTime(FleetBenchmark.day))
    return Outcome(
      events: sim.processedEvents, tasksCreated: counts.created, tasksFinished: counts.finished,
      tasksFailed: counts.failed, backgroundLaunches: counts.backgroundLaunches,
      appFileSeconds: Double(counts.fileNanoseconds) / 1e9,
      delegateCalls: sim.bridgeHost?.delegateCalls ?? 0,
      finishEventsCalls: counts.finishEvents, handlersCalledInTime: counts.handlersInTime)
  }
}

/// What the fleet app did, across its processes.
final class FleetCounts: @unchecked Sendable {
  var created = 0
  var finished = 0
  var failed = 0
  var backgroundLaunches = 0
  var fileNanoseconds: UInt64 = 0
  var finishEvents = 0
  var handlersInTime = 0
}

/// The fleet app as an iOS team would write it: a background session recreated at every launch,
/// files moved out of the temporary location, the completion handler called from the main queue.
final class FleetAppDelegate: NSObject, SimulatedAppDelegate, URLSessionDownloadDelegate,
  URLSessionBackgroundEventsDelegate, @unchecked Sendable
{
  let urls: [URL]
  let counts: FleetCounts
  let documents: URL
  let application: SimulatedApplication
  var session: URLSession?
  var handler: (() -> Void)?

  init(_ application: SimulatedApplication, urls: [URL], counts: FleetCounts) {
    self.urls = urls
    self.counts = counts
    self.application = application
    documents = application.containerDirectory.appendingPathComponent("Documents", isDirectory: true)
    try? FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
  }

  func applicationDidFinishLaunching(_ application: SimulatedApplication) {
    if application.launchReason == .background { counts.backgroundLaunches += 1 }
    let session = application.makeURLSession(
      configuration: .simulatedBackground(withIdentifier: "fleet"), delegate: self, delegateQueue: nil)
    self.session = session
    guard counts.created == 0 else { return }
    for url in urls {
      session.downloadTask(with: url).resume()
      counts.created += 1
    }
  }

  func application(
    _ application: SimulatedApplication, handleEventsForBackgroundURLSession identifier: String,
    completionHandler: @escaping () -> Void
  ) { handler = completionHandler }

  func urlSession(
    _ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL
  ) {
    let start = DispatchTime.now().uptimeNanoseconds
    let target = documents.appendingPathComponent("item")
    try? FileManager.default.removeItem(at: target)
    try? FileManager.default.moveItem(at: location, to: target)
    counts.fileNanoseconds += DispatchTime.now().uptimeNanoseconds - start
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
    if error == nil { counts.finished += 1 } else { counts.failed += 1 }
  }

  func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
    counts.finishEvents += 1
    let calledAt = application.now
    DispatchQueue.main.async {
      if self.handler != nil && self.application.now == calledAt { self.counts.handlersInTime += 1 }
      self.handler?()
      self.handler = nil
    }
  }
}
