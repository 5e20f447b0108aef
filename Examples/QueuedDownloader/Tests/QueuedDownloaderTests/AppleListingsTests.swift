import BgsimFoundation
import Foundation
import Testing

/// Apple's own listings (seeds 000 and 002) run unchanged but for the session seam: the host's
/// `Date()` in Listing 2 is named where it crosses in, and with `application.now` the four
/// stories pass the same way on every run.
@Suite struct AppleListingsTests {
  static let book = URL(string: "https://example.com/book.zip")!

  /// One 2 GB file on Wi-Fi while charging (Listing 1's session is discretionary); the user
  /// opens the app and Listing 2 runs at 1 s; the task may begin an hour later.
  static func world(wallClock: Bool = false, _ script: (Simulation) -> Void) -> Simulation {
    let server = ServerModel(resources: [
      ServerResource(url: SimURL(book.absoluteString)!, size: 2_000_000_000, etag: "\"book\"")
    ])
    var device = DeviceModel.wifi
    device.power = [Step(at: .zero, PowerState(charging: true))]
    let sim = Simulation(seed: 7, device: device, server: server)
    sim.installApp { application in
      AppleListingsAppDelegate(application, now: wallClock ? { Date() } : { application.now })
    }
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { app($0)?.startDownload(book) }
    script(sim)
    sim.run(until: SimTime(.hours(6)))
    return sim
  }

  static func app(_ sim: Simulation) -> AppleListingsAppDelegate? {
    sim.currentAppDelegate as? AppleListingsAppDelegate
  }

  static func lints(_ sim: Simulation) -> [String] {
    sim.trace.events.filter { $0.kind == "lint" }.compactMap { $0["rule"]?.description }
  }

  static func started(_ sim: Simulation) -> SimTime? {
    sim.trace.events.first { $0.kind == "task.started" }?.time
  }

  /// Story 1: the app leaves the foreground and the system terminates it; the download finishes
  /// and the system relaunches the app in the background for it.
  static func relaunch() -> Simulation {
    world { sim in
      sim.schedule(at: SimTime(.seconds(2))) { $0.backgroundApp() }
      sim.schedule(at: SimTime(.seconds(10))) { $0.terminateApp() }
    }
  }

  /// Story 2: the user pauses 2 minutes into the transfer (Listing 1) and resumes a minute later
  /// (Listing 3), in the foreground.
  static func pauseAndResume() -> Simulation {
    world { sim in
      sim.schedule(at: SimTime(.seconds(3_600 + 121))) { app($0)?.pause() }
      sim.schedule(at: SimTime(.seconds(3_600 + 181))) { app($0)?.resumeDownload() }
    }
  }

  /// Story 3: the user force-quits 2 minutes into the transfer and opens the app 10 minutes
  /// later; the error's resume data (Listing 2) resumes the download when they tap (Listing 3).
  static func forceQuit() -> Simulation {
    world { sim in
      sim.schedule(at: SimTime(.seconds(2))) { $0.backgroundApp() }
      sim.schedule(at: SimTime(.seconds(3_600 + 121))) { $0.forceQuitApp() }
      sim.schedule(at: SimTime(.seconds(3_600 + 721))) { $0.launchApp() }
      sim.schedule(at: SimTime(.seconds(3_600 + 722))) { app($0)?.resumeDownload() }
    }
  }

  static func resumedOffset(_ sim: Simulation) -> Int64? {
    sim.trace.events.first { $0.kind == "delegate.didResumeAtOffset" }?["offset"].flatMap {
      Int64($0.description)
    }
  }

  @Test func listingTwosDateIsLintedWhereTheTaskIsCreated() throws {
    let sim = Self.world(wallClock: true) { _ in }
    #expect(Self.lints(sim) == ["wallClockDate"])
    let lint = try #require(sim.trace.events.first { $0.kind == "lint" })
    #expect(lint.time == SimTime(.seconds(1)))
    #expect(lint["property"]?.description == "earliestBeginDate")
  }

  @Test func relaunchAfterASystemTermination() {
    let sim = Self.relaunch()
    #expect(Self.lints(sim) == [])
    #expect((Self.started(sim) ?? .zero) >= SimTime(.seconds(3_601)))
    let launches = sim.trace.events.filter { $0.kind == "app.launch" }.compactMap {
      $0["reason"]?.description
    }
    #expect(launches == ["user", "background"])
    #expect(Self.app(sim)?.finishedFiles == ["book.zip"])
    #expect(sim.trace.events.contains { $0.kind == "app.completionHandlerCalled" })
  }

  @Test func pauseAndResumeWithResumeData() throws {
    let sim = Self.pauseAndResume()
    #expect(Self.lints(sim) == [])
    let offset = try #require(Self.resumedOffset(sim))
    #expect(offset > 0 && offset < 2_000_000_000)
    #expect(Self.app(sim)?.finishedFiles == ["book.zip"])
  }

  @Test func forceQuitThenResumeFromTheErrorsResumeData() throws {
    let sim = Self.forceQuit()
    #expect(Self.lints(sim) == [])
    let offset = try #require(Self.resumedOffset(sim))
    #expect(offset > 0 && offset < 2_000_000_000)
    #expect(Self.app(sim)?.finishedFiles == ["book.zip"])
  }

  @Test func everyStoryIsDeterministic() {
    for story in [Self.relaunch, Self.pauseAndResume, Self.forceQuit] {
      let check = Simulation.checkDeterminism(runs: 3) { story() }
      #expect(check.isDeterministic, "\(check)")
    }
  }
}
