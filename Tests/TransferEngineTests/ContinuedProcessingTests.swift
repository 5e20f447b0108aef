import SimKernel
import Testing

@testable import TransferEngine

/// `BGContinuedProcessingTask` through the engine (behavior.md, "Continued processing").
@Suite("Continued processing")
struct ContinuedProcessingTests {
  static let book = [Fixture.resource("https://example.com/book", size: 1_000_000)]

  static func simulation(_ policy: Policy = .defaults) -> Simulation {
    Fixture.simulation(resources: book, policy: policy, app: TestApp([.background(withIdentifier: "S")]))
  }

  /// `kind identifier=... result|reason|error=...` for every `continued.*` event and lint.
  static func lines(_ sim: Simulation) -> [String] {
    sim.trace.events.compactMap { event in
      if event.kind == "lint" { return "lint \(event["rule"]?.description ?? "")" }
      guard event.kind.hasPrefix("continued.") else { return nil }
      let detail = ["result", "reason", "error", "position"].compactMap { key in
        event[key].map { "\(key)=\($0.description)" }
      }
      return ([event.kind, event["identifier"]?.description ?? ""] + detail).joined(separator: " ")
    }
  }

  static func time(_ sim: Simulation, _ kind: String, _ identifier: String? = nil) -> SimTime? {
    sim.trace.events.first { event in
      event.kind == kind && (identifier == nil || event["identifier"]?.description == identifier)
    }?.time
  }

  @Test("below the limit a task runs at once; at it .queue waits, .fail is immediateRunIneligible")
  func queueAndFail() {
    let sim = Self.simulation()
    let app = AppContext(simulation: sim)
    var launched: [String] = []
    let first = app.submitContinuedProcessing(identifier: "a", title: "A") { _, id in launched.append(id) }
    let second = app.submitContinuedProcessing(identifier: "b", title: "B", strategy: .queue) { _, id in
      launched.append(id)
    }
    let third = app.submitContinuedProcessing(identifier: "c", title: "C", strategy: .fail) { _, id in
      launched.append(id)
    }
    #expect(first == .running)
    #expect(second == .queued)
    #expect(third == .failed(.immediateRunIneligible))
    #expect(launched == ["a"])
    #expect(sim.queuedContinuedProcessing == ["b"])
    sim.schedule(at: SimTime(.seconds(10))) { sim in
      AppContext(simulation: sim).completeContinuedProcessing("a", success: true)
    }
    sim.run(until: SimTime(.seconds(20)))
    #expect(launched == ["a", "b"])
    #expect(sim.runningContinuedProcessing == ["b"])
    #expect(Self.time(sim, "continued.start", "b") == SimTime(.seconds(10)))
    #expect(Self.lines(sim).contains("continued.end a result=succeeded"))
    #expect(Self.lines(sim).contains("continued.refused c error=immediateRunIneligible"))
  }

  @Test("maxRunning 2 runs two at once and only the third queues")
  func limitKnob() {
    var policy = Policy.defaults
    policy.continuedProcessing.maxRunning = 2
    let sim = Self.simulation(policy)
    let app = AppContext(simulation: sim)
    #expect(app.submitContinuedProcessing(identifier: "a", title: "A") { _, _ in } == .running)
    #expect(
      app.submitContinuedProcessing(identifier: "b", title: "B", strategy: .fail) { _, _ in } == .running)
    #expect(
      app.submitContinuedProcessing(identifier: "c", title: "C", strategy: .fail) { _, _ in }
        == .failed(.immediateRunIneligible))
  }

  @Test(
    "from the background a submission is refused with notPermitted; a duplicate with tooManyPendingTaskRequests"
  )
  func refusals() {
    let sim = Self.simulation()
    let app = AppContext(simulation: sim)
    #expect(app.submitContinuedProcessing(identifier: "a", title: "A") { _, _ in } == .running)
    #expect(
      app.submitContinuedProcessing(identifier: "a", title: "A") { _, _ in }
        == .failed(.tooManyPendingTaskRequests))
    sim.backgroundApp()
    #expect(app.submitContinuedProcessing(identifier: "b", title: "B") { _, _ in } == .failed(.notPermitted))
    #expect(Self.lines(sim).contains("continued.refused b error=notPermitted"))
  }

  @Test("a running task keeps the backgrounded app from being suspended until it completes")
  func keepsAppRunning() {
    let sim = Self.simulation()
    let app = AppContext(simulation: sim)
    app.submitContinuedProcessing(identifier: "a", title: "A") { _, _ in }
    sim.backgroundApp()
    for second in stride(from: 10, through: 50, by: 10) {
      sim.schedule(at: SimTime(.seconds(Int64(second)))) { sim in
        AppContext(simulation: sim).reportContinuedProgress("a", completed: Int64(second), total: 60)
      }
    }
    sim.schedule(at: SimTime(.seconds(60))) { sim in
      AppContext(simulation: sim).completeContinuedProcessing("a", success: true)
    }
    sim.run(until: SimTime(.minutes(5)))
    #expect(Self.time(sim, "app.suspend") == SimTime(.seconds(60)))
    #expect(!Self.lines(sim).contains { $0.hasPrefix("lint") })
  }

  @Test("no progress for the window: lint, expiration handler, then the task ends expired")
  func stalls() {
    let sim = Self.simulation()
    let app = AppContext(simulation: sim)
    var handled: [SimTime] = []
    app.submitContinuedProcessing(identifier: "a", title: "A") { app, id in
      app.setContinuedProcessingExpirationHandler(id) { app in
        handled.append(app.now)
        app.completeContinuedProcessing(id, success: false)
      }
    }
    sim.schedule(at: SimTime(.seconds(20))) { sim in
      AppContext(simulation: sim).reportContinuedProgress("a", completed: 1, total: 10)
    }
    // The same count again is not progress.
    sim.schedule(at: SimTime(.seconds(40))) { sim in
      AppContext(simulation: sim).reportContinuedProgress("a", completed: 1, total: 10)
    }
    sim.run(until: SimTime(.minutes(5)))
    #expect(handled == [SimTime(.seconds(50))])
    #expect(
      Self.lines(sim) == [
        "continued.submit a", "continued.start a", "continued.progress a", "continued.progress a",
        "lint continuedTaskExpired", "continued.expire a reason=noProgress", "continued.end a result=expired",
      ])
  }

  @Test("the progress window is a knob")
  func windowKnob() {
    var policy = Policy.defaults
    policy.continuedProcessing.progressWindow = .seconds(5)
    let sim = Self.simulation(policy)
    AppContext(simulation: sim).submitContinuedProcessing(identifier: "a", title: "A") { _, _ in }
    sim.run(until: SimTime(.minutes(1)))
    #expect(Self.time(sim, "continued.expire") == SimTime(.seconds(5)))
  }

  @Test("an expiration handler without setTaskCompleted is continuedTaskNeverCompleted")
  func handlerDoesNotComplete() {
    let sim = Self.simulation()
    AppContext(simulation: sim).submitContinuedProcessing(identifier: "a", title: "A") { _, _ in }
    sim.run(until: SimTime(.minutes(1)))
    #expect(
      Self.lines(sim).suffix(4) == [
        "lint continuedTaskExpired", "continued.expire a reason=noProgress",
        "lint continuedTaskNeverCompleted",
        "continued.end a result=expired",
      ])
    #expect(sim.runningContinuedProcessing.isEmpty)
  }

  @Test(
    "all work reported done but never completed is continuedTaskNeverCompleted, not an expiry for progress")
  func doneButNotCompleted() {
    let sim = Self.simulation()
    let app = AppContext(simulation: sim)
    app.submitContinuedProcessing(identifier: "a", title: "A") { app, id in
      app.setContinuedProcessingExpirationHandler(id) { app in
        app.completeContinuedProcessing(id, success: false)
      }
    }
    app.reportContinuedProgress("a", completed: 2, total: 2)
    sim.run(until: SimTime(.minutes(1)))
    let lints = Self.lines(sim).filter { $0.hasPrefix("lint") }
    #expect(lints == ["lint continuedTaskNeverCompleted"])
  }

  @Test("the user stops a running task (handler, cancelledByUser) and removes a queued one")
  func userCancel() {
    let sim = Self.simulation()
    let app = AppContext(simulation: sim)
    var expired = 0
    app.submitContinuedProcessing(identifier: "a", title: "A") { app, id in
      app.setContinuedProcessingExpirationHandler(id) { app in
        expired += 1
        app.completeContinuedProcessing(id, success: false)
      }
    }
    app.submitContinuedProcessing(identifier: "b", title: "B") { _, _ in }
    app.submitContinuedProcessing(identifier: "c", title: "C") { _, _ in }
    sim.schedule(at: SimTime(.seconds(3))) { sim in sim.cancelContinuedProcessingByUser("c") }
    sim.schedule(at: SimTime(.seconds(5))) { sim in sim.cancelContinuedProcessingByUser("a") }
    sim.run(until: SimTime(.seconds(10)))
    #expect(expired == 1)
    let lines = Self.lines(sim)
    #expect(lines.contains("continued.end c result=cancelledByUser"))
    #expect(lines.contains("continued.expire a reason=user"))
    #expect(lines.contains("continued.end a result=cancelledByUser"))
    #expect(sim.runningContinuedProcessing == ["b"])
    #expect(!lines.contains { $0.hasPrefix("lint") })
  }

  @Test(
    "force quit ends running and queued tasks as cancelledByAppSwitcher; a system termination as processEnded"
  )
  func processEnds() {
    let quit = Self.simulation()
    let app = AppContext(simulation: quit)
    app.submitContinuedProcessing(identifier: "a", title: "A") { _, _ in }
    app.submitContinuedProcessing(identifier: "b", title: "B") { _, _ in }
    quit.forceQuitApp()
    #expect(
      Self.lines(quit).suffix(2) == [
        "continued.end a result=cancelledByAppSwitcher", "continued.end b result=cancelledByAppSwitcher",
      ])
    #expect(quit.runningContinuedProcessing.isEmpty && quit.queuedContinuedProcessing.isEmpty)

    let killed = Self.simulation()
    AppContext(simulation: killed).submitContinuedProcessing(identifier: "a", title: "A") { _, _ in }
    killed.terminateApp()
    #expect(Self.lines(killed).last == "continued.end a result=processEnded")
    killed.run(until: SimTime(.minutes(1)))
    #expect(!Self.lines(killed).contains { $0.hasPrefix("continued.expire") })
  }
}
