import BgsimFoundation
import Dispatch
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite struct BridgeLintTests {
  static let episode = "https://example.com/episode.mp3"

  func world() -> Simulation {
    let server = ServerModel(resources: [
      ServerResource(url: SimURL(Self.episode)!, size: 500_000_000, etag: "\"e1\"")
    ])
    return Simulation(seed: 2, device: .wifi, server: server)
  }

  func lints(_ sim: Simulation) -> [String] {
    sim.trace.events.filter { $0.kind == "lint" }.compactMap { $0["rule"]?.description }
  }

  func delegate(_ sim: Simulation) -> PlainAppDelegate? { sim.currentAppDelegate as? PlainAppDelegate }

  /// `makeURLSession` with a background configuration and no delegate: nothing could receive
  /// the session's events, which the run says.
  @Test func aBackgroundSessionWithoutADelegateIsLinted() {
    let sim = world()
    sim.installApp { app in
      _ = app.makeURLSession(configuration: .default, delegate: nil, delegateQueue: nil)
      _ = app.makeURLSession(
        configuration: .simulatedBackground(withIdentifier: "nobody"), delegate: nil, delegateQueue: nil)
      return PlainAppDelegate(app)
    }
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.run(until: SimTime(.seconds(1)))
    #expect(lints(sim) == ["backgroundSessionWithoutDelegate"])
    #expect(sim.trace.events.first { $0.kind == "lint" }?["session"]?.description == "nobody")
  }

  /// Launch, a download, the user leaves, the system terminates the app: the download finishes
  /// with the app gone, and the system relaunches it in the background.
  func downloadThenTerminate(_ sim: Simulation) {
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in self.delegate(sim)?.startDownload(Self.episode) }
    sim.schedule(at: SimTime(.seconds(2))) { $0.backgroundApp() }
    sim.schedule(at: SimTime(.seconds(30))) { $0.terminateApp() }
    sim.run(until: SimTime(.hours(1)))
  }

  /// Seed 004's sample names its background session `UUID().uuidString`: each launch a new one.
  @Test func aBackgroundIdentifierThatChangesAcrossLaunchesIsLinted() {
    let sim = world()
    var launch = 0
    sim.installApp { app in
      launch += 1
      return PlainAppDelegate(app, identifier: "downloads-\(launch)")
    }
    downloadThenTerminate(sim)
    #expect(lints(sim).contains("sessionIdentifierChanged"))
  }

  /// An identifier written in another Unicode form at a later launch (a decomposed "é", as text
  /// from another source may be) is another session to the system: the earlier one's events
  /// never reach the app. `String`'s `==` takes the two as equal; the bridge must not.
  @Test func anIdentifierInAnotherUnicodeFormIsAnotherSession() {
    let sim = world()
    var launch = 0
    sim.installApp { app in
      launch += 1
      return PlainAppDelegate(app, identifier: launch == 1 ? "caf\u{E9}" : "cafe\u{301}")
    }
    downloadThenTerminate(sim)
    #expect(lints(sim).contains("sessionIdentifierChanged"))
    #expect(lints(sim).contains("sessionNotRecreated"))
    #expect(!lints(sim).contains("duplicateSessionIdentifier"))
  }

  @Test func aFixedIdentifierIsNotLinted() {
    let sim = world()
    sim.installApp { PlainAppDelegate($0) }
    downloadThenTerminate(sim)
    #expect(lints(sim).isEmpty)
  }

  @Test func aCallFromARealThreadWhileTimeMovesIsLinted() {
    let sim = world()
    sim.installApp { PlainAppDelegate($0) }
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in
      let session = UncheckedSession(session: self.delegate(sim)!.session)
      let done = DispatchSemaphore(value: 0)
      Thread {
        session.session.getAllTasks { _ in }
        done.signal()
      }.start()
      done.wait()
    }
    sim.run(until: SimTime(.seconds(5)))
    #expect(lints(sim) == ["callFromUndrainedQueue"])
  }

  @Test func resumeDataUsedTwiceIsLinted() {
    let sim = world()
    sim.installApp { PlainAppDelegate($0) }
    let box = DataBox()
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in self.delegate(sim)?.startDownload(Self.episode) }
    sim.schedule(at: SimTime(.seconds(10))) { sim in
      self.delegate(sim)?.session.getAllTasks { tasks in
        (tasks.first as? URLSessionDownloadTask)?.cancel { box.data = $0 }
      }
    }
    sim.schedule(at: SimTime(.seconds(11))) { sim in
      let session = self.delegate(sim)!.session!
      session.downloadTask(withResumeData: box.data!).resume()
      session.downloadTask(withResumeData: box.data!).resume()
    }
    sim.run(until: SimTime(.seconds(12)))
    #expect(box.data != nil)
    #expect(lints(sim) == ["resumeDataReused"])
  }

  /// Moving the file later (from the main queue) loses it, as on a device.
  @Test func aDeferredMoveLosesTheFile() {
    let sim = world()
    sim.installApp { app in
      let d = PlainAppDelegate(app)
      d.downloads.defersMove = true
      return d
    }
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in self.delegate(sim)?.startDownload(Self.episode) }
    sim.run(until: SimTime(.hours(1)))
    #expect(lints(sim) == ["downloadedFileLost"])
    #expect(
      !FileManager.default.fileExists(
        atPath: sim.appContainerDirectory!.appendingPathComponent("Documents/episode.mp3").path))
  }

  func runReading(_ read: PlainDownloadDelegate.Read) -> (Simulation, Int?) {
    let sim = world()
    var downloads: PlainDownloadDelegate?
    sim.installApp { app in
      let d = PlainAppDelegate(app)
      d.downloads.reads = read
      downloads = d.downloads
      return d
    }
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in self.delegate(sim)?.startDownload(Self.episode) }
    sim.run(until: SimTime(.hours(1)))
    return (sim, downloads?.bytesRead)
  }

  /// Reading the file after `didFinishDownloadingTo` returned finds nothing, as on a device.
  @Test func aFileReadAfterTheCallReturnedIsGoneAndLinted() {
    let (sim, bytes) = runReading(.later)
    #expect(bytes == nil)
    #expect(lints(sim) == ["downloadedFileLost"])
  }

  /// Reading it in the call (a small JSON, say) takes it: no lint.
  @Test func aFileReadInTheCallIsNotLinted() {
    let (sim, bytes) = runReading(.inPlace)
    #expect(bytes == 4096)
    #expect(lints(sim).isEmpty)
  }
}

struct UncheckedSession: @unchecked Sendable { let session: URLSession }

/// Resume data handed back on the delegate queue, read by the test after the bridge waited for it.
final class DataBox: @unchecked Sendable { var data: Data? }

/// Low Data Mode and metered networks through the bridge: the engine's reason reaches the app's
/// `NSError` as `NSURLErrorNetworkUnavailableReasonKey`, as `URLError.networkUnavailableReason`
/// reads it on a device.
@Suite struct BridgeNetworkUnavailableTests {
  static let episode = "https://example.com/episode.mp3"

  /// A default session that disallows expensive networks, on cellular only: -1009, reason 1.
  @Test func aDisallowedInterfaceIsTheErrorsReason() throws {
    let configuration = URLSessionConfiguration.default
    configuration.allowsExpensiveNetworkAccess = false
    let error = try #require(Self.firstError(on: NetworkState(interface: .cellular), configuration))
    #expect(error.code == NSURLErrorNotConnectedToInternet)
    #expect(error.userInfo[NSURLErrorNetworkUnavailableReasonKey] as? Int == 1)
  }

  /// Offline altogether: -1009 with no reason, as on a device.
  @Test func noInterfaceAtAllHasNoReason() throws {
    let error = try #require(Self.firstError(on: .offline, .default))
    #expect(error.code == NSURLErrorNotConnectedToInternet)
    #expect(error.userInfo[NSURLErrorNetworkUnavailableReasonKey] == nil)
  }

  /// The error a download of the episode ends with, made at launch in a session of
  /// `configuration` on a device whose network is `network` for the whole minute run.
  static func firstError(on network: NetworkState, _ configuration: URLSessionConfiguration) -> NSError? {
    let server = ServerModel(resources: [ServerResource(url: SimURL(episode)!, size: 1_000_000)])
    let sim = Simulation(seed: 3, device: DeviceModel(network: [Step(at: .zero, network)]), server: server)
    var delegate: PlainDownloadDelegate?
    sim.installApp { app in
      let downloads = PlainDownloadDelegate(container: app.containerDirectory)
      delegate = downloads
      let session = app.makeURLSession(configuration: configuration, delegate: downloads, delegateQueue: nil)
      session.downloadTask(with: URL(string: episode)!).resume()
      return PlainAppDelegate(app)
    }
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.run(until: SimTime(.minutes(1)))
    return delegate?.lastError
  }
}
