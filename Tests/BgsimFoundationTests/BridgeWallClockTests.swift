import BgsimFoundation
import Dispatch
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Code that outlives a callback on wall-clock time: `DispatchQueue.asyncAfter` and real threads.
/// Each test pins the real-time order with semaphores, so what the bridge sees is the same on
/// every run however loaded the machine is.
@Suite struct BridgeWallClockTests {
  func lints(_ sim: Simulation) -> [String] {
    sim.trace.events.filter { $0.kind == "lint" }.compactMap { $0["rule"]?.description }
  }

  func app(_ sim: Simulation) -> PlainAppDelegate? { sim.currentAppDelegate as? PlainAppDelegate }

  /// The state-file bug of issue 11: saved by `asyncAfter` on wall-clock time, the write lands
  /// after the system terminated the process; on a device it would never have happened.
  @Test func aWriteByATerminatedProcessIsLintedAtTheNextLaunch() throws {
    let sim = Simulation(seed: 1)
    sim.installApp { PlainAppDelegate($0) }
    let terminated = DispatchSemaphore(value: 0)
    let written = DispatchSemaphore(value: 0)
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in
      let state = self.app(sim)!.application.containerDirectory.appendingPathComponent("state.json")
      DispatchQueue.global().asyncAfter(deadline: .now() + 0.01) {
        terminated.wait()
        try? Data("{}".utf8).write(to: state)
        written.signal()
      }
    }
    sim.schedule(at: SimTime(.seconds(10))) { sim in
      sim.terminateApp()
      terminated.signal()
      written.wait()
    }
    sim.schedule(at: SimTime(.seconds(20))) { $0.launchApp() }
    sim.run(until: SimTime(.seconds(30)))
    #expect(lints(sim) == ["writeAfterTermination"])
    let lint = try #require(sim.trace.events.first { $0.kind == "lint" })
    #expect(lint["path"]?.description == "state.json")
    #expect(lint.time == SimTime(.seconds(20)))
  }

  /// A file the live process saved, rewritten with the same size after it was terminated, is a
  /// change too: the snapshot compares modification times, not only which paths exist.
  @Test func aFileRewrittenAfterTerminationIsLinted() throws {
    let sim = Simulation(seed: 1)
    sim.installApp { PlainAppDelegate($0) }
    let state = { (sim: Simulation) in
      sim.appContainerDirectory!.appendingPathComponent("Documents/state.json")
    }
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in try? Data("v1".utf8).write(to: state(sim)) }
    sim.schedule(at: SimTime(.seconds(10))) { sim in
      sim.terminateApp()
      // As a thread of the dead process would, a little later in real time.
      let written =
        try? FileManager.default.attributesOfItem(atPath: state(sim).path)[.modificationDate] as? Date
      while Date() <= (written ?? .distantPast).addingTimeInterval(0.01) { usleep(1_000) }
      try? Data("v2".utf8).write(to: state(sim))
    }
    sim.schedule(at: SimTime(.seconds(20))) { $0.launchApp() }
    sim.run(until: SimTime(.seconds(30)))
    #expect(lints(sim) == ["writeAfterTermination"])
    let lint = try #require(sim.trace.events.first { $0.kind == "lint" })
    #expect(lint["path"]?.description == "Documents/state.json")
  }

  /// Writes while the process lives, and the bridge's own files after it ended, are not linted.
  @Test func writesByALiveProcessAreNotLinted() {
    let sim = Simulation(seed: 1)
    sim.installApp { app in
      let d = PlainAppDelegate(app)
      try? Data("v1".utf8).write(to: app.containerDirectory.appendingPathComponent("state.json"))
      return d
    }
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(10))) { $0.terminateApp() }
    sim.schedule(at: SimTime(.seconds(20))) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(25))) { $0.terminateApp() }
    sim.schedule(at: SimTime(.seconds(30))) { $0.launchApp() }
    sim.run(until: SimTime(.seconds(40)))
    #expect(lints(sim).isEmpty)
  }

  /// A session call from a terminated process's `asyncAfter` block reaches a dead session.
  @Test func aSessionCallAfterTerminationIsLinted() {
    let sim = Simulation(seed: 1)
    sim.installApp { PlainAppDelegate($0) }
    let terminated = DispatchSemaphore(value: 0)
    let called = DispatchSemaphore(value: 0)
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in
      let session = UncheckedSession(session: self.app(sim)!.session)
      DispatchQueue.global().asyncAfter(deadline: .now() + 0.01) {
        terminated.wait()
        session.session.getAllTasks { _ in }
        called.signal()
      }
    }
    sim.schedule(at: SimTime(.seconds(10))) { sim in
      sim.terminateApp()
      terminated.signal()
      called.wait()
    }
    sim.run(until: SimTime(.seconds(30)))
    #expect(lints(sim) == ["callFromUndrainedQueue"])
  }

  /// An `asyncAfter` block on a global queue that fires while a delegate method runs (here the
  /// method waits for it) is not the delegate queue: linted even though the bridge is waiting.
  @Test func aCallFromAGlobalQueueDuringADelegateCallIsLinted() {
    let sim = Simulation(seed: 1)
    sim.installApp { PlainAppDelegate($0) }
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in
      let application = self.app(sim)!.application
      application.after(1) {
        let session = UncheckedSession(session: self.app(sim)!.session)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.01) {
          session.session.getAllTasks { _ in }
          done.signal()
        }
        done.wait()
      }
    }
    sim.run(until: SimTime(.seconds(30)))
    #expect(lints(sim) == ["callFromUndrainedQueue"])
  }

  /// Calls from the delegate queue and the main queue while the bridge waits are not linted.
  @Test func callsFromTheDelegateAndMainQueuesAreNotLinted() {
    let sim = Simulation(seed: 1)
    sim.installApp { PlainAppDelegate($0) }
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in
      let app = self.app(sim)!
      app.application.after(1) {
        let session = UncheckedSession(session: app.session)
        session.session.delegateQueue.addOperation {
          session.session.getAllTasks { _ in }
          DispatchQueue.main.async { session.session.getAllTasks { _ in } }
        }
      }
    }
    sim.run(until: SimTime(.seconds(30)))
    #expect(lints(sim).isEmpty)
  }
}
