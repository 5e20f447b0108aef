import BgsimFoundation
import Dispatch
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Time the app sees: `now`, `after` and `clock` on simulated time, and a host `Date()` that
/// crosses into the bridge named `wallClockDate`.
@Suite(.serialized) struct BridgeClockTests {
  static let episode = "https://example.com/e.mp3"

  static func world(seed: UInt64 = 1) -> Simulation {
    let server = ServerModel(resources: [
      ServerResource(url: SimURL(episode)!, size: 1_000_000, etag: "\"e\"")
    ])
    return Simulation(seed: seed, server: server)
  }

  static func lints(_ sim: Simulation) -> [TraceEvent] { sim.trace.events.filter { $0.kind == "lint" } }

  /// Apple's Listing 2 defers a task with `Date().addingTimeInterval(60 * 60)`: the host's clock.
  static func listingTwo(begin: @escaping (SimulatedApplication) -> Date) -> Simulation {
    let sim = world()
    sim.installApp { PlainAppDelegate($0) }
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(30))) { sim in
      let app = sim.currentAppDelegate as! PlainAppDelegate
      let task = app.session.downloadTask(with: URL(string: Self.episode)!)
      task.earliestBeginDate = begin(app.application)
      task.countOfBytesClientExpectsToSend = 200
      task.countOfBytesClientExpectsToReceive = 500 * 1024
      task.resume()
    }
    sim.run(until: SimTime(.hours(2)))
    return sim
  }

  @Test func aDateFromTheHostsClockIsLintedWhereItCrossesIn() throws {
    let sim = Self.listingTwo { _ in Date().addingTimeInterval(60 * 60) }
    let lint = try #require(Self.lints(sim).first)
    #expect(Self.lints(sim).count == 1)
    #expect(lint["rule"]?.description == "wallClockDate")
    #expect(lint["property"]?.description == "earliestBeginDate")
    #expect(lint.time == SimTime(.seconds(30)))
    let message = lint["message"]?.description ?? ""
    #expect(message.contains("2100-01-01T00:00:30Z"))
    #expect(message.contains("application.now"))
    // Decades before the simulated clock: a date in its past, so the task is not deferred, the
    // same way on every run.
    let check = Simulation.checkDeterminism(runs: 3) {
      Self.listingTwo { _ in Date().addingTimeInterval(3600) }
    }
    #expect(check.isDeterministic, "\(check)")
  }

  @Test func aDateFromTheSimulatedClockIsNotLintedAndDefersTheTask() {
    let sim = Self.listingTwo { $0.now.addingTimeInterval(60 * 60) }
    #expect(Self.lints(sim).isEmpty)
    #expect(sim.trace.events.first { $0.kind == "task.started" }?.time == SimTime(.seconds(30 + 3_600)))
  }

  @Test func theDefaultReferenceDateIsDecadesFromAnyHostDate() {
    #expect(Simulation.defaultReferenceDate.timeIntervalSinceNow > 50 * 365 * 86_400)
  }

  /// The clock's instants count simulated time; its `Duration`s are Swift's.
  @Test func theClockReadsSimulatedTime() {
    let sim = Self.world()
    var seen: [Duration] = []
    sim.installApp { app in
      let delegate = PlainAppDelegate(app)
      app.after(90) { seen.append(app.clock.now.sinceStart) }
      return delegate
    }
    sim.schedule(at: SimTime(.seconds(10))) { $0.launchApp() }
    sim.run(until: SimTime(.minutes(5)))
    #expect(seen == [.seconds(100)])
  }

  /// A task sleeping on the clock (a debouncer with an injected clock) resumes when simulated
  /// time reaches its deadline, however fast the simulation runs, and what it does right then
  /// happens at that simulated instant. The simulation runs on a thread of its own here so that
  /// this test's task can be the one asleep.
  @Test func aTaskSleepingOnTheClockWakesAtItsSimulatedDeadline() async throws {
    let sim = Self.world()
    sim.installApp { PlainAppDelegate($0) }
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.run(until: SimTime(.seconds(1)))
    let app = try #require(sim.currentAppDelegate as? PlainAppDelegate)
    let clock = app.application.clock
    let session = UncheckedSession(session: app.session)
    let finished = DispatchSemaphore(value: 0)
    let world = UncheckedWorld(sim: sim)
    Thread {
      // Goes on once this test's task is asleep: registering takes microseconds, this 50 ms.
      usleep(50_000)
      world.sim.run(until: SimTime(.hours(1)))
      finished.signal()
    }.start()
    // On `SimulatedClock` itself the sleep runs on the caller's executor: it is registered before
    // this task suspends, from the thread that ran the simulation so far.
    try await clock.sleep(for: .seconds(600))
    session.session.downloadTask(with: URL(string: Self.episode)!).resume()
    #expect(clock.now == SimulatedClock.Instant(sinceStart: .seconds(600)))
    await withCheckedContinuation { done in
      DispatchQueue.global().async {
        finished.wait()
        done.resume()
      }
    }
    #expect(sim.trace.events.first { $0.kind == "task.created" }?.time == SimTime(.seconds(600)))
    #expect(sim.trace.events.contains { $0.kind == "task.finished" })
  }

  /// `after` follows the engine's app-timer rule: a timer due while the app is suspended runs
  /// when it next runs (here the user's return at 10 minutes), and one whose process ended
  /// never runs.
  @Test func aTimerDueWhileSuspendedRunsAtTheNextResumeAndDiesWithItsProcess() throws {
    func run(endsProcess: Bool) throws -> [TimeInterval] {
      let sim = Self.world()
      sim.installApp { PlainAppDelegate($0) }
      let fired = LockedList<TimeInterval>()
      sim.schedule(at: .zero) { $0.launchApp() }
      sim.schedule(at: SimTime(.seconds(1))) { sim in
        let application = (sim.currentAppDelegate as! PlainAppDelegate).application
        let armed = application.now
        application.after(60) { fired.append(application.now.timeIntervalSince(armed)) }
      }
      sim.schedule(at: SimTime(.seconds(2))) { $0.backgroundApp() }
      if endsProcess { sim.schedule(at: SimTime(.minutes(5))) { $0.terminateApp() } }
      sim.schedule(at: SimTime(.minutes(10))) { $0.launchApp() }
      sim.run(until: SimTime(.minutes(20)))
      #expect(sim.trace.events.contains { $0.kind == "app.suspend" })
      return fired.values
    }
    #expect(try run(endsProcess: false) == [599])
    #expect(try run(endsProcess: true) == [])
  }

  /// A sleep of a process that ends throws `CancellationError`; the task never wakes on its own.
  @Test func aSleepOfATerminatedProcessIsCancelled() {
    let sim = Self.world()
    let ended = DispatchSemaphore(value: 0)
    let outcome = Outcome()
    sim.installApp { app in
      let delegate = PlainAppDelegate(app)
      let clock = app.clock
      Task { @MainActor in
        do {
          try await clock.sleep(for: .seconds(600))
          outcome.set("woke")
        } catch {
          outcome.set("\(type(of: error))")
        }
        ended.signal()
      }
      return delegate
    }
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(60))) { $0.terminateApp() }
    sim.run(until: SimTime(.hours(1)))
    #expect(ended.wait(timeout: .now() + 10) == .success)
    #expect(outcome.value == "CancellationError")
    #expect(Self.lints(sim).isEmpty)
  }
}

/// What a task reported, read by the test after the task ended.
final class Outcome: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: String?
  func set(_ value: String) {
    lock.lock()
    stored = value
    lock.unlock()
  }
  var value: String? {
    lock.lock()
    defer { lock.unlock() }
    return stored
  }
}

/// Hands a simulation to the thread that runs it.
struct UncheckedWorld: @unchecked Sendable { let sim: Simulation }
