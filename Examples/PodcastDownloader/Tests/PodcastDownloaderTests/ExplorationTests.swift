import BgsimTesting
import Foundation
import PodcastDownloader
import Testing

/// The planted late write found without saying where it is: the test gives only what the user
/// does. The exploration terminates the app at every kill point and injects random faults.
@Suite struct PodcastExplorationTests {
  static let episode = URL(string: "https://podcasts.example.com/ep42.mp3")!

  /// Wi-Fi, one 300 MB episode; the user taps Download at 1 s and leaves the app at 2 s.
  let world = ExplorationWorld(duration: .hours(1)) { seed in
    let server = ServerModel(resources: [
      ServerResource(url: SimURL(Self.episode.absoluteString)!, size: 300_000_000, etag: "\"ep42-v1\"")
    ])
    return Simulation(seed: seed, device: .wifi, server: server)
  } user: { sim in
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in
      (sim.currentAppDelegate as? PodcastAppDelegate)?.downloader.download(Self.episode)
    }
    sim.schedule(at: SimTime(.seconds(2))) { $0.backgroundApp() }
  }

  @Test func explorationFindsTheLateStateWrite() throws {
    let report = Exploration.run(world, app: { _ in PodcastAppDelegate(saveDelay: 0.2) })
    let finding = try #require(report.findings.first { $0.rule == "terminationNotTransparent" })
    // Shrunk to one termination, inside the 200 ms between the completion and the state write.
    #expect(finding.faults.count == 1)
    let fault = try #require(finding.faults.first)
    let completed = try #require(
      finding.trace.last { $0.kind == "delegate.didFinishDownloading" && $0.time <= fault.at })
    #expect(fault.at >= completed.time && fault.at < completed.time + .milliseconds(200))
    #expect(finding.message.contains("ep42.mp3: done"))
    // The replay the finding printed reproduces it.
    let replay = Exploration.replay(
      world, app: { _ in PodcastAppDelegate(saveDelay: 0.2) }, faults: finding.faults, seed: finding.seed)
    #expect(replay.findings.map(\.rule) == ["terminationNotTransparent"])
  }

  @Test func withTheBugFixedTheExplorationFindsNothing() {
    let report = Exploration.run(world, app: { _ in PodcastAppDelegate(saveDelay: 0) })
    expectNoFindings(report)
    #expect(report.runs > 100)
  }

  @Test func twoExplorationsGiveTheSameFindings() {
    let first = Exploration.run(world, app: { _ in PodcastAppDelegate(saveDelay: 0.2) }, seeds: 1...20)
    let second = Exploration.run(
      world, app: { _ in PodcastAppDelegate(saveDelay: 0.2) }, seeds: 1...20, jobs: 1)
    #expect(!first.findings.isEmpty)
    #expect(first.description == second.description)
    #expect(first.findings.map(\.replayScenario) == second.findings.map(\.replayScenario))
  }
}
