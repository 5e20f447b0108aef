import BgsimFoundation
import Foundation
import QueuedDownloader
import Testing

/// The correct manager through what iOS does to an app: a system termination with a background
/// relaunch, and a force quit. No sleeps, semaphores or expectations: the bridge waits for the
/// manager's queue before simulated time moves.
@Suite struct QueuedDownloaderTests {
  /// 20 files of 20 MB, five at a time; the system terminates the suspended app at 10 s.
  static func terminated(seed: UInt64 = 1) -> Simulation {
    let sim = Worlds.simulation(seed: seed, files: 20, size: 20_000_000)
    sim.installApp { _ in QueuedAppDelegate(QueuedDownloaderConfiguration(maxConcurrentDownloads: 5)) }
    Worlds.userTapsDownloadAll(sim, files: 20)
    sim.schedule(at: SimTime(.seconds(10))) { $0.terminateApp() }
    sim.run(until: SimTime(.hours(8)))
    return sim
  }

  /// One 200 MB file; the user force-quits the app at 20 s and opens it again at 5 minutes.
  static func forceQuit(seed: UInt64 = 1) -> Simulation {
    let sim = Worlds.simulation(seed: seed, files: 1, size: 200_000_000)
    sim.installApp { _ in QueuedAppDelegate() }
    Worlds.userTapsDownloadAll(sim, files: 1)
    sim.schedule(at: SimTime(.seconds(20))) { $0.forceQuitApp() }
    sim.schedule(at: SimTime(.minutes(5))) { $0.launchApp() }
    sim.run(until: SimTime(.hours(1)))
    return sim
  }

  @Test func twentyDownloadsSurviveASystemTermination() {
    let sim = Self.terminated()
    #expect(Worlds.downloadedFiles(sim) == Worlds.urls(20).map(\.lastPathComponent).sorted())
    #expect(Worlds.lints(sim) == [])
    let launches = sim.trace.events.filter { $0.kind == "app.launch" }.compactMap {
      $0["reason"]?.description
    }
    #expect(launches.first == "user")
    #expect(launches.dropFirst().contains("background"))
    #expect(sim.trace.events.contains { $0.kind == "app.completionHandlerCalled" })
    // Exactly one task per file: the relaunched manager neither lost nor repeated one.
    #expect(sim.trace.events.filter { $0.kind == "task.created" }.count == 20)
  }

  @Test func aForceQuitResumesFromTheErrorsResumeDataAtItsOffset() throws {
    let sim = Self.forceQuit()
    let resumed = try #require(sim.trace.events.first { $0.kind == "delegate.didResumeAtOffset" })
    #expect(resumed.time >= SimTime(.minutes(5)))
    let offset = try #require(resumed["offset"].flatMap { Int64($0.description) })
    #expect(offset > 0 && offset < 200_000_000)
    #expect(Worlds.downloadedFiles(sim) == ["file1.bin"])
    #expect(Worlds.lints(sim) == [])
    let summary = try #require(Worlds.downloader(sim)).summaryLines
    #expect(summary == "https://files.example.com/queued/file1.bin: done")
  }

  /// Resume data whose partial file is gone from `NSTemporaryDirectory()` is not used: the
  /// manager starts the download over instead of a task that would fail with -3003. With the
  /// file there, the same taps resume at the paused offset.
  @Test(arguments: [false, true])
  func pausedDownloadResumesOnlyWhileItsPartialFileExists(fileRemoved: Bool) {
    let url = Worlds.urls(1)[0]
    let sim = Worlds.simulation(seed: 1, files: 1, size: 200_000_000)
    sim.installApp { _ in QueuedAppDelegate() }
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { Worlds.downloader($0)?.download([url]) }
    sim.schedule(at: SimTime(.seconds(10))) { Worlds.downloader($0)?.pause(url) }
    var removed: [String] = []
    sim.schedule(at: SimTime(.seconds(30))) { sim in
      // The system cleared the host's copy of the partial file (the container's stays).
      guard fileRemoved, let tmp = sim.appContainerDirectory?.appendingPathComponent("tmp") else { return }
      let names = ((try? FileManager.default.contentsOfDirectory(atPath: tmp.path)) ?? []).sorted()
      for name in names where name.hasSuffix(".tmp") {
        let hostCopy = (NSTemporaryDirectory() as NSString).appendingPathComponent(name)
        if (try? FileManager.default.removeItem(atPath: hostCopy)) != nil { removed.append(name) }
      }
    }
    sim.schedule(at: SimTime(.seconds(40))) { Worlds.downloader($0)?.resume(url) }
    sim.run(until: SimTime(.hours(1)))
    #expect(removed.count == (fileRemoved ? 1 : 0))
    let resumed = sim.trace.events.contains { $0.kind == "delegate.didResumeAtOffset" }
    #expect(resumed == !fileRemoved)
    #expect(!sim.trace.events.contains { $0.kind == "bridge.resumeDataRejected" })
    #expect(sim.trace.events.filter { $0.kind == "task.created" }.count == 2)
    #expect(Worlds.downloadedFiles(sim) == ["file1.bin"])
  }

  @Test func tenRunsOfEachGiveTheSameTrace() {
    let terminated = Simulation.checkDeterminism(runs: 10) { Self.terminated() }
    #expect(terminated.isDeterministic, "\(terminated)")
    let forceQuit = Simulation.checkDeterminism(runs: 10) { Self.forceQuit() }
    #expect(forceQuit.isDeterministic, "\(forceQuit)")
  }
}
