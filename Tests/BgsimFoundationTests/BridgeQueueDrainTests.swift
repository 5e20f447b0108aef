import BgsimFoundation
import Dispatch
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Every queue app code really runs on is waited for before simulated time moves: the delegate
/// queue's `underlyingQueue` whoever put the block there, and the main queue from any thread.
/// These tests have no synchronisation of their own: Swift Testing runs them off the main thread.
@Suite struct BridgeQueueDrainTests {
  static let episodes = (1...20).map { "https://example.com/episodes/\($0).mp3" }

  static var server: ServerModel {
    ServerModel(
      resources: episodes.map { ServerResource(url: SimURL($0)!, size: 40_000_000, etag: "\"v1\"") })
  }

  static func lintLines(_ sim: Simulation) -> [String] {
    sim.trace.events.filter { $0.kind == "lint" }.map(\.jsonLine)
  }

  static func lints(_ sim: Simulation) -> [String] {
    sim.trace.events.filter { $0.kind == "lint" }.compactMap { $0["rule"]?.description }
  }

  /// The user taps "download all" a second after launch, then leaves the app; the system
  /// terminates it; the downloads finish in the background and the app is relaunched for them.
  static func terminatedManager(seed: UInt64 = 1, files: UnsafeMutablePointer<[String]>? = nil) -> Simulation
  {
    let sim = Simulation(seed: seed, server: server)
    sim.installApp { QueuedAppDelegate($0) }
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in
      (sim.currentAppDelegate as? QueuedAppDelegate)?.manager.start(episodes)
    }
    sim.schedule(at: SimTime(.seconds(3))) { $0.backgroundApp() }
    sim.schedule(at: SimTime(.seconds(10))) { $0.terminateApp() }
    sim.run(until: SimTime(.hours(2)))
    if let files, let container = sim.appContainerDirectory {
      let documents = container.appendingPathComponent("Documents")
      files.pointee =
        ((try? FileManager.default.contentsOfDirectory(atPath: documents.path)) ?? []).sorted()
    }
    return sim
  }

  @Test func aTiercelShapedManagerGetsEveryFileThroughATermination() throws {
    var files: [String] = []
    let sim = Self.terminatedManager(files: &files)
    #expect(Self.lints(sim) == [], "\(Self.lintLines(sim))")
    #expect(files.filter { $0.hasSuffix(".mp3") }.count == 20)
    let launches = sim.trace.events.filter { $0.kind == "app.launch" }.compactMap {
      $0["reason"]?.description
    }
    #expect(launches == ["user", "background"])
    #expect(sim.trace.events.filter { $0.kind == "task.created" }.count == 20)
  }

  @Test func aTiercelShapedManagerIsDeterministic() {
    let check = Simulation.checkDeterminism(runs: 10) { Self.terminatedManager() }
    #expect(check.isDeterministic, "\(check)")
    #expect(check.runs == 10)
  }

  /// The seeds' pattern: nil delegate queue; `urlSessionDidFinishEvents` reconciles with
  /// `getTasksWithCompletionHandler`, then calls the stored handler from the main queue.
  @Test(arguments: [true, false])
  func theSeedsPatternCallsItsHandlerAfterABackgroundRelaunch(fromReconcile: Bool) {
    let sim = Simulation(seed: 1, server: Self.server)
    sim.installApp { ReconcilingAppDelegate($0, handlerFromReconcile: fromReconcile) }
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in
      (sim.currentAppDelegate as? ReconcilingAppDelegate)?.start(Self.episodes[0])
    }
    sim.schedule(at: SimTime(.seconds(3))) { $0.backgroundApp() }
    sim.schedule(at: SimTime(.seconds(4))) { $0.terminateApp() }
    sim.run(until: SimTime(.hours(1)))
    #expect(Self.lints(sim) == [], "\(Self.lintLines(sim))")
    #expect(
      sim.trace.events.contains { $0.kind == "app.launch" && $0["reason"]?.description == "background" })
    #expect(sim.trace.events.contains { $0.kind == "app.completionHandlerCalled" })
  }

  /// A user action that queues work on the manager's own queue is waited for before time moves:
  /// the task is created at the instant of the action, not whenever the queue's thread got to it.
  @Test func workQueuedByAUserActionRunsAtTheActionsInstant() {
    let sim = Simulation(seed: 1, server: Self.server)
    sim.installApp { QueuedAppDelegate($0) }
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(7))) { sim in
      (sim.currentAppDelegate as? QueuedAppDelegate)?.manager.start([Self.episodes[0]])
    }
    sim.run(until: SimTime(.seconds(8)))
    let created = sim.trace.events.first { $0.kind == "task.created" }
    #expect(created?.time == SimTime(.seconds(7)))
    #expect(Self.lints(sim) == [], "\(Self.lintLines(sim))")
  }

  /// A call from the delegate queue's `underlyingQueue` fired by a real-time timer while the
  /// simulation is between steps (no delegate call, launch, timer or user action of the app is
  /// running) is `wallClockTimer`, once.
  @Test func aRealTimeTimerOnTheManagersQueueIsLinted() throws {
    let sim = Simulation(seed: 1, server: Self.server)
    sim.installApp { QueuedAppDelegate($0) }
    let stepStarted = DispatchSemaphore(value: 0)
    let fired = DispatchSemaphore(value: 0)
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in
      guard let manager = (sim.currentAppDelegate as? QueuedAppDelegate)?.manager else { return }
      // The timer: the block lands on the manager's queue once the engine step below is under
      // way, whatever the machine's load (the semaphore pins the real-time order).
      DispatchQueue.global().async {
        stepStarted.wait()
        manager.queue.async {
          manager.session.getAllTasks { _ in }
          fired.signal()
        }
      }
    }
    // An engine step that is no app code (the bridge does not wrap it) lasts until the timer fired.
    let bridged = try #require(sim.outsideCodeRunner)
    let engineStep = SimTime(.seconds(2))
    sim.outsideCodeRunner = { [unowned sim] body in sim.now == engineStep ? body() : bridged(body) }
    sim.schedule(at: engineStep) { _ in
      stepStarted.signal()
      fired.wait()
    }
    sim.run(until: SimTime(.seconds(3)))
    #expect(Self.lints(sim) == ["wallClockTimer"])
    #expect(sim.trace.events.first { $0.kind == "lint" }?.time == engineStep)
  }
}

/// The seeds' app delegate, with a nil delegate queue.
final class ReconcilingAppDelegate: NSObject, SimulatedAppDelegate, URLSessionDownloadDelegate,
  URLSessionBackgroundEventsDelegate, @unchecked Sendable
{
  let application: SimulatedApplication
  var session: URLSession!
  var completionHandler: (() -> Void)?

  /// Calls the handler from the reconciliation's completion (else right after asking for it).
  let handlerFromReconcile: Bool

  init(_ application: SimulatedApplication, handlerFromReconcile: Bool = true) {
    self.application = application
    self.handlerFromReconcile = handlerFromReconcile
  }

  func applicationDidFinishLaunching(_ application: SimulatedApplication) {
    session = application.makeURLSession(
      configuration: .simulatedBackground(withIdentifier: "com.example.seeds"), delegate: self,
      delegateQueue: nil)
  }

  func application(
    _ application: SimulatedApplication, handleEventsForBackgroundURLSession identifier: String,
    completionHandler: @escaping () -> Void
  ) {
    self.completionHandler = completionHandler
  }

  func start(_ url: String) { session.downloadTask(with: URL(string: url)!).resume() }

  func urlSession(
    _ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL
  ) {
    let target = application.containerDirectory.appendingPathComponent(location.lastPathComponent)
    try? FileManager.default.moveItem(at: location, to: target)
  }

  func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
    session.getTasksWithCompletionHandler { _, _, _ in
      if self.handlerFromReconcile { self.callHandlerOnMain() }
    }
    if !handlerFromReconcile { callHandlerOnMain() }
  }

  func callHandlerOnMain() {
    DispatchQueue.main.async {
      self.completionHandler?()
      self.completionHandler = nil
    }
  }
}
