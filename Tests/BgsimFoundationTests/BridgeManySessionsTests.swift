import Foundation
import Testing

@testable import BgsimFoundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An app with many sessions: the bridge looks at a delegate queue many sessions share once per
/// wait, keeps few delivery loops (and their threads) alive, and lists the app's timers in order.
@Suite struct BridgeManySessionsTests {
  static func urls(_ count: Int) -> [String] { (1...count).map { "https://example.com/file-\($0).bin" } }

  /// Files of different sizes, so that each session's call comes at its own instant.
  static func server(_ count: Int) -> ServerModel {
    ServerModel(
      resources: urls(count).enumerated().map {
        ServerResource(url: SimURL($1)!, size: Int64(1_000_000 * ($0 + 1)))
      })
  }

  /// Records, on the delegate queue, when each file's call came and when the work it queued
  /// there (one operation, which queues one more) ran, in simulated time.
  final class Recorder: NSObject, URLSessionDownloadDelegate, @unchecked Sendable {
    let application: SimulatedApplication
    let queue: OperationQueue?
    var lines: [String] = []
    init(application: SimulatedApplication, queue: OperationQueue?) {
      self.application = application
      self.queue = queue
    }
    func urlSession(
      _ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL
    ) {
      // Reading the file in the call takes it (the bridge lints a file nobody took).
      let handle = try? FileHandle(forReadingFrom: location)
      _ = try? handle?.read(upToCount: 16)
      try? handle?.close()
      let name = downloadTask.originalRequest?.url?.lastPathComponent ?? "?"
      let at = application.now.timeIntervalSince1970
      lines.append("\(name) call \(at)")
      guard let queue else { return }
      queue.addOperation { [self] in
        lines.append("\(name) queued \(application.now.timeIntervalSince1970) (call \(at))")
        queue.addOperation { [self] in
          lines.append("\(name) queued again \(application.now.timeIntervalSince1970) (call \(at))")
        }
      }
    }
  }

  /// `count` sessions, on one delegate queue of the app's (`shared`) or each on its own (nil).
  final class ManySessionsApp: SimulatedAppDelegate {
    let count: Int
    let shared: Bool
    var recorder: Recorder!
    var sessions: [URLSession] = []
    init(count: Int, shared: Bool) {
      self.count = count
      self.shared = shared
    }
    func applicationDidFinishLaunching(_ application: SimulatedApplication) {
      let queue = OperationQueue()
      queue.maxConcurrentOperationCount = 1
      recorder = Recorder(application: application, queue: shared ? queue : nil)
      for url in BridgeManySessionsTests.urls(count) {
        let session = application.makeURLSession(
          configuration: .default, delegate: recorder, delegateQueue: shared ? queue : nil)
        session.downloadTask(with: URL(string: url)!).resume()
        sessions.append(session)
      }
    }
    func application(
      _ application: SimulatedApplication, handleEventsForBackgroundURLSession identifier: String,
      completionHandler: @escaping () -> Void
    ) { completionHandler() }
  }

  static func run(count: Int, shared: Bool) -> (sim: Simulation, app: ManySessionsApp?) {
    let sim = Simulation(seed: 2, device: .wifi, server: server(count))
    var app: ManySessionsApp?
    sim.installApp { _ in
      let made = ManySessionsApp(count: count, shared: shared)
      app = made
      return made
    }
    sim.launchApp()
    sim.run(until: SimTime(.minutes(10)))
    return (sim, app)
  }

  @Test func workQueuedOnADelegateQueueManySessionsShareRunsBeforeTimeMoves() throws {
    let (sim, app) = Self.run(count: 5, shared: true)
    let lines = try #require(app?.recorder.lines)
    #expect(lines.count == 15, "\(lines)")
    // Each call's queued work ran at the call's own instant, before the next call.
    for index in stride(from: 0, to: lines.count, by: 3) {
      let call = lines[index].split(separator: " ")
      #expect(call[1] == "call")
      #expect(lines[index + 1] == "\(call[0]) queued \(call[2]) (call \(call[2]))")
      #expect(lines[index + 2] == "\(call[0]) queued again \(call[2]) (call \(call[2]))")
    }
    let calls = lines.filter { $0.split(separator: " ")[1] == "call" }
    #expect(Set(calls.map { $0.split(separator: " ")[2] }).count == 5, "five instants: \(lines)")
    #expect(sim.trace.events.filter { $0.kind == "lint" }.isEmpty)
    let check = Simulation.checkDeterminism(runs: 4) { Self.run(count: 5, shared: true).sim }
    #expect(check.isDeterministic, "\(check)")
  }

  /// Six sessions with queues of the bridge's own: once the sixth got its call, at most
  /// `ParkedLoops.shared.limit` delivery loops wait for a next call, always fewer than the
  /// machine's cores, none on one core (on Linux the pool that runs operation queues has one
  /// thread a core and does not grow when one waits), and the oldest were stopped at once rather
  /// than left holding a thread until their idle timeout. Tests running in parallel only stop more.
  @Test func onlyTheLatestSessionsKeepADeliveryLoop() throws {
    let cores = ProcessInfo.processInfo.activeProcessorCount
    #expect(ParkedLoops.shared.limit == max(0, cores - 1))
    let (sim, app) = Self.run(count: 6, shared: false)
    #expect(app?.recorder.lines.count == 6)
    let process = try #require(sim.bridgeHost?.process)
    let loops = process.sessions.compactMap(\.deliveryLoop)
    #expect(loops.count == 6)
    let kept = loops.filter { ParkedLoops.shared.isKept($0) }
    #expect(kept.count <= ParkedLoops.shared.limit)
    for loop in loops.dropLast(ParkedLoops.shared.limit) {
      #expect(loop.isStoppedOrStopping)
      #expect(!ParkedLoops.shared.isKept(loop))
    }
    withExtendedLifetime(sim) {}
  }

  /// The limit holds across simulations: a second simulation's calls stop the loops the first
  /// left waiting (a test suite runs many simulations at once), so they never hold every thread.
  @Test func deliveryLoopsAreLimitedAcrossSimulations() throws {
    let first = Self.run(count: 3, shared: false).sim
    let second = Self.run(count: 3, shared: false).sim
    let loops = [first, second].flatMap { sim in
      (sim.bridgeHost?.process?.sessions ?? []).compactMap(\.deliveryLoop)
    }
    #expect(loops.count == 6)
    #expect(loops.filter { ParkedLoops.shared.isKept($0) }.count <= ParkedLoops.shared.limit)
    #expect(loops.filter { !$0.isStoppedOrStopping }.count <= ParkedLoops.shared.limit)
    // The first simulation's loops are older than every loop of the second.
    let firstLoops = loops.prefix(3)
    #expect(firstLoops.allSatisfy { !ParkedLoops.shared.isKept($0) } || ParkedLoops.shared.limit > 3)
    withExtendedLifetime((first, second)) {}
  }

  /// The slots alone. With none (a one-core machine) a loop is told to stop before its call and
  /// after it, so it ends once the call ran; with one, a newer loop pushes the older one out.
  @Test func parkedLoopsKeepAtMostTheirLimit() throws {
    let loops = (0..<2).map { _ in
      let queue = OperationQueue()
      queue.maxConcurrentOperationCount = 1
      return (queue, DeliveryLoop(queue: queue))
    }
    func call(_ loop: DeliveryLoop, _ slots: ParkedLoops) {
      slots.keep(loop)
      let done = HandOff.makeSignal()
      loop.submit({}, then: done)
      #expect(done.wait(until: .now() + .seconds(30)))
      slots.stopUnlessKept(loop)
    }
    let none = ParkedLoops(limit: 0)
    call(loops[0].1, none)
    #expect(!none.isKept(loops[0].1))
    #expect(loops[0].1.isStoppedOrStopping)
    let one = ParkedLoops(limit: 1)
    call(loops[0].1, one)
    #expect(one.isKept(loops[0].1))
    call(loops[1].1, one)
    #expect(one.isKept(loops[1].1))
    #expect(!one.isKept(loops[0].1))
    #expect(loops[0].1.isStoppedOrStopping)
    for (_, loop) in loops { loop.stop() }
  }

  final class TimersApp: SimulatedAppDelegate {
    func applicationDidFinishLaunching(_ application: SimulatedApplication) {
      for delay in [10.0, 10, 5, 20] { application.after(delay) {} }
    }
    func application(
      _ application: SimulatedApplication, handleEventsForBackgroundURLSession identifier: String,
      completionHandler: @escaping () -> Void
    ) { completionHandler() }
  }

  /// `pendingAppTimers`: in order, a timer each, however many share an instant.
  @Test func pendingAppTimersListsEachTimerInOrderUntilItRuns() {
    let sim = Simulation(seed: 1, device: .wifi, server: ServerModel(resources: []))
    sim.installApp { _ in TimersApp() }
    var seen: [[SimTime]] = []
    sim.schedule(at: .zero) { $0.launchApp() }
    for second in [1, 7, 15, 25] {
      sim.schedule(at: SimTime(.seconds(Int64(second)))) { seen.append($0.pendingAppTimers) }
    }
    sim.run(until: SimTime(.minutes(1)))
    let at = { (seconds: Int64) in SimTime(.seconds(seconds)) }
    #expect(seen == [[at(5), at(10), at(10), at(20)], [at(10), at(10), at(20)], [at(20)], []])
  }
}

#if !canImport(Darwin)
  /// Linux keeps the configuration properties swift-corelibs-foundation lacks in a table beside
  /// the objects; it drops dead entries now and then, never a live one.
  @Suite struct LinuxConfigurationShimsTests {
    @Test func manyLiveConfigurationsKeepTheirValuesWhileDeadOnesGo() {
      var kept: [URLSessionConfiguration] = []
      for index in 0..<300 {
        let configuration = URLSessionConfiguration.simulatedBackground(withIdentifier: "s\(index)")
        configuration.sessionSendsLaunchEvents = index % 2 == 0
        if index % 3 == 0 {
          kept.append(configuration)
        } else {
          // Made and dropped, as the bridge's copies of a configuration are.
          configuration.allowsExpensiveNetworkAccess = false
        }
      }
      #expect(kept.count == 100)
      for (position, configuration) in kept.enumerated() {
        let index = position * 3
        #expect(configuration.identifier == "s\(index)")
        #expect(configuration.sessionSendsLaunchEvents == (index % 2 == 0), "s\(index)")
        #expect(configuration.allowsExpensiveNetworkAccess)
        #expect(configuration.bridgeCopy().sessionSendsLaunchEvents == (index % 2 == 0))
      }
    }
  }
#endif
