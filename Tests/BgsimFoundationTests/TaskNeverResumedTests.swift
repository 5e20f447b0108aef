import BgsimFoundation
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `taskNeverResumed`: a task the app made and never resumed is named, once, when its process
/// ends with it or after ten minutes of simulated time; a resumed or cancelled task never is.
@Suite struct TaskNeverResumedTests {
  static let episode = "https://example.com/episode.mp3"

  func world() -> Simulation {
    let server = ServerModel(resources: [
      ServerResource(url: SimURL(Self.episode)!, size: 500_000_000, etag: "\"e1\"")
    ])
    return Simulation(seed: 3, device: .wifi, server: server)
  }

  func lints(_ sim: Simulation) -> [TraceEvent] {
    sim.trace.events.filter { $0.kind == "lint" && $0["rule"]?.description == "taskNeverResumed" }
  }

  /// The second manager's slip: after a force quit it recreates the task from the error's resume
  /// data and leaves it unresumed for hours.
  @Test func aTaskRecreatedFromResumeDataAndLeftUnresumedIsNamedAfterTenMinutes() throws {
    let sim = world()
    sim.installApp { PlainAppDelegate($0) }
    var recreated: URLSessionDownloadTask?
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in
      (sim.currentAppDelegate as? PlainAppDelegate)?.startDownload(Self.episode)
    }
    sim.schedule(at: SimTime(.seconds(21))) { $0.forceQuitApp() }
    sim.schedule(at: SimTime(.minutes(5))) { $0.launchApp() }
    sim.schedule(at: SimTime(.minutes(6))) { sim in
      guard let app = sim.currentAppDelegate as? PlainAppDelegate,
        let data = try? Data(contentsOf: app.downloads.documents.appendingPathComponent("resume.data"))
      else { return }
      recreated = app.session.downloadTask(withResumeData: data)
    }
    // The user leaves the app: its delegate is told, so the bridge checks its tasks then.
    sim.schedule(at: SimTime(.minutes(17))) { $0.backgroundApp() }
    sim.run(until: SimTime(.hours(6)))
    #expect(recreated?.state == .suspended)
    let found = lints(sim)
    #expect(found.count == 1)
    let at = try #require(found.first?.time)
    #expect(at == SimTime(.minutes(17)))
    #expect(found.first?["message"]?.description.contains(Self.episode) == true)
  }

  @Test func aProcessThatEndsWithAnUnresumedTaskIsNamed() {
    let sim = world()
    sim.installApp { PlainAppDelegate($0) }
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in
      _ = (sim.currentAppDelegate as? PlainAppDelegate)?.session.downloadTask(
        with: URL(string: Self.episode)!)
    }
    sim.schedule(at: SimTime(.seconds(30))) { $0.forceQuitApp() }
    sim.run(until: SimTime(.minutes(1)))
    let found = lints(sim)
    #expect(found.count == 1)
    #expect(found.first?.time == SimTime(.seconds(30)))
  }

  @Test func resumedAndCancelledTasksAreNotNamed() {
    let sim = world()
    sim.installApp { PlainAppDelegate($0) }
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in
      guard let app = sim.currentAppDelegate as? PlainAppDelegate else { return }
      app.startDownload(Self.episode)
      app.session.downloadTask(with: URL(string: Self.episode)!).cancel()
    }
    sim.schedule(at: SimTime(.hours(1))) { $0.forceQuitApp() }
    sim.run(until: SimTime(.hours(2)))
    #expect(lints(sim).isEmpty)
  }
}
