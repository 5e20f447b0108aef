import BgsimFoundation
import Foundation
import PodcastDownloader
import Testing

@Suite struct PodcastDownloaderTests {
  static let episode = URL(string: "https://podcasts.example.com/ep42.mp3")!

  /// Wi-Fi, one 300 MB episode; the user taps Download at 1 s and leaves the app at 2 s.
  func world(saveDelay: TimeInterval = 0) -> Simulation {
    let server = ServerModel(resources: [
      ServerResource(url: SimURL(Self.episode.absoluteString)!, size: 300_000_000, etag: "\"ep42-v1\"")
    ])
    let sim = Simulation(seed: 42, device: .wifi, server: server)
    sim.installApp { _ in PodcastAppDelegate(saveDelay: saveDelay) }
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in self.downloader(sim)?.download(Self.episode) }
    sim.schedule(at: SimTime(.seconds(2))) { $0.backgroundApp() }
    return sim
  }

  func downloader(_ sim: Simulation) -> PodcastDownloader? {
    (sim.currentAppDelegate as? PodcastAppDelegate)?.downloader
  }

  /// What the user sees when they open the app at 30 minutes.
  func stateAtUserLaunch(_ sim: Simulation) -> EpisodeState? {
    var state: EpisodeState?
    sim.schedule(at: SimTime(.minutes(30))) { $0.launchApp() }
    sim.schedule(at: SimTime(.minutes(31))) { sim in
      state = self.downloader(sim)?.states[Self.episode.absoluteString]
    }
    sim.run(until: SimTime(.hours(1)))
    return state
  }

  /// The check a team would keep in CI: an episode whose file is in Documents must be `done`
  /// in the state file; otherwise a completion was lost with the process. Returns the bug's name.
  func lostCompletion(_ sim: Simulation, _ state: EpisodeState?) -> String? {
    guard let container = sim.appContainerDirectory else { return nil }
    let file = container.appendingPathComponent("Documents/Episodes/\(Self.episode.lastPathComponent)")
    guard FileManager.default.fileExists(atPath: file.path) else { return nil }
    if case .done? = state { return nil }
    return
      "state written late: the episode's file is on disk but the state file still says \(String(describing: state!))"
  }

  @Test func relaunchAfterTerminationFinishesTheEpisode() {
    let sim = world()
    sim.schedule(at: SimTime(.seconds(20))) { $0.terminateApp() }
    let state = stateAtUserLaunch(sim)
    #expect(state == .done(file: "ep42.mp3"))
    #expect(lostCompletion(sim, state) == nil)
    let launches = sim.trace.events.filter { $0.kind == "app.launch" }.map { $0["reason"] }
    #expect(launches == ["user", "background"])
    #expect(sim.trace.events.contains { $0.kind == "app.completionHandlerCalled" })
    #expect(!sim.trace.events.contains { $0.kind == "lint" })
  }

  @Test func forceQuitResumesFromResumeDataSavedInTheContainer() throws {
    let sim = world()
    sim.schedule(at: SimTime(.seconds(20))) { $0.forceQuitApp() }
    let state = stateAtUserLaunch(sim)
    #expect(state == .done(file: "ep42.mp3"))
    let resumed = try #require(sim.trace.events.first { $0.kind == "delegate.didResumeAtOffset" })
    #expect(resumed.time > SimTime(.minutes(30)))
    let saved = sim.appContainerDirectory!.appendingPathComponent("Library/ResumeData/ep42.mp3.resume")
    #expect(FileManager.default.fileExists(atPath: saved.path))
  }

  /// The planted bug: with state writes batched 200 ms after a change, a completion handled in a
  /// background wake is lost when the system kills the suspended app before the write.
  @Test func theLateStateWriteIsCaught() {
    let sim = world(saveDelay: 0.2)
    sim.schedule(at: SimTime(.seconds(20))) { $0.terminateApp() }
    // The episode finishes in a background launch; the app suspends right after its completion
    // handler; memory pressure kills it at 10 minutes, before the pending write ran.
    sim.schedule(at: SimTime(.minutes(10))) { $0.terminateApp() }
    let state = stateAtUserLaunch(sim)
    #expect(state == .downloading)
    #expect(lostCompletion(sim, state)?.hasPrefix("state written late") == true)
  }

  @Test func withoutTheBugNothingIsLost() {
    let sim = world(saveDelay: 0)
    sim.schedule(at: SimTime(.seconds(20))) { $0.terminateApp() }
    sim.schedule(at: SimTime(.minutes(10))) { $0.terminateApp() }
    let state = stateAtUserLaunch(sim)
    #expect(lostCompletion(sim, state) == nil)
    #expect(state == .done(file: "ep42.mp3"))
  }
}
