import BgsimFoundation
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Files that leave the simulated device: a delivered file moved out of the container
/// (`fileOutsideContainer`), and paths from another simulation's container, which Swift statics
/// carry from one simulation to the next in a test process (`staleContainerPath`).
@Suite struct ContainerPathLintTests {
  static let episode = "https://example.com/episode.mp3"
  static let upload = "https://example.com/upload"

  /// `episodeSize` names the copy: the lint finds a copy by its size and age, so the test that
  /// leaves one in a host folder gives it a size of its own, or a test running beside it that
  /// deletes its file would find that copy.
  func world(seed: UInt64 = 4, episodeSize: Int64 = 2_000_000) -> Simulation {
    let server = ServerModel(resources: [
      ServerResource(url: SimURL(Self.episode)!, size: episodeSize, etag: "\"e1\""),
      ServerResource(url: SimURL(Self.upload)!, size: 100),
    ])
    return Simulation(seed: seed, device: .wifi, server: server)
  }

  func lints(_ sim: Simulation, _ rule: String) -> [TraceEvent] {
    sim.trace.events.filter { $0.kind == "lint" && $0["rule"]?.description == rule }
  }

  /// Moves every delivered file into `destination`, copies it there and deletes it, or reads it
  /// and deletes it.
  final class MovingDelegate: NSObject, URLSessionDownloadDelegate, @unchecked Sendable {
    enum Way { case move, copyAndDelete, readAndDelete }
    let destination: URL
    let way: Way
    var moved = 0
    init(destination: URL, way: Way) {
      self.destination = destination
      self.way = way
    }
    func urlSession(
      _ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL
    ) {
      try? FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
      let target = destination.appendingPathComponent("episode-\(downloadTask.taskIdentifier).mp3")
      switch way {
      case .move:
        if (try? FileManager.default.moveItem(at: location, to: target)) != nil { moved += 1 }
      case .copyAndDelete:
        guard (try? FileManager.default.copyItem(at: location, to: target)) != nil else { return }
        try? FileManager.default.removeItem(at: location)
        moved += 1
      case .readAndDelete:
        guard let data = try? Data(contentsOf: location), !data.isEmpty else { return }
        try? FileManager.default.removeItem(at: location)
        moved += 1
      }
    }
  }

  final class MovingApp: SimulatedAppDelegate {
    let downloads: MovingDelegate
    var session: URLSession!
    init(destination: URL, way: MovingDelegate.Way = .move) {
      downloads = MovingDelegate(destination: destination, way: way)
    }
    func applicationDidFinishLaunching(_ application: SimulatedApplication) {
      session = application.makeURLSession(configuration: .default, delegate: downloads, delegateQueue: nil)
      session.downloadTask(with: URL(string: ContainerPathLintTests.episode)!).resume()
    }
    func application(
      _ application: SimulatedApplication, handleEventsForBackgroundURLSession identifier: String,
      completionHandler: @escaping () -> Void
    ) { completionHandler() }
  }

  /// Runs the app that moves (or copies) its one delivered file into `destination(container)`,
  /// and returns the `fileOutsideContainer` lints with how many files the app moved.
  func runMoving(
    _ way: MovingDelegate.Way, episodeSize: Int64 = 2_000_000, to destination: @escaping (URL) -> URL
  ) -> (lints: [TraceEvent], moved: Int?) {
    let sim = world(episodeSize: episodeSize)
    var app: MovingApp?
    sim.installApp { application in
      let made = MovingApp(destination: destination(application.containerDirectory), way: way)
      app = made
      return made
    }
    sim.launchApp()
    sim.run(until: SimTime(.minutes(5)))
    return (lints(sim, "fileOutsideContainer"), app?.downloads.moved)
  }

  static func outsideFolder(in parent: URL = FileManager.default.temporaryDirectory) -> URL {
    parent.appendingPathComponent("bgsim-outside-\(UUID().uuidString)", isDirectory: true)
  }

  @Test func aDeliveredFileMovedOutOfTheContainerIsNamed() throws {
    let outside = Self.outsideFolder()
    defer { try? FileManager.default.removeItem(at: outside) }
    let (found, moved) = runMoving(.move) { _ in outside }
    #expect(moved == 1)
    #expect(found.count == 1)
    #expect(found.first?["message"]?.description.contains("moved the file") == true)
    #expect(found.first?["message"]?.description.contains("SimulatedApplication.containerDirectory") == true)
  }

  @Test func aDeliveredFileMovedWithinTheContainerIsNotNamed() {
    let (found, moved) = runMoving(.move) { $0.appendingPathComponent("Documents") }
    #expect(moved == 1)
    #expect(found.isEmpty)
  }

  /// A copy and a delete leave no inode to follow (what a move to another file system does): the
  /// copy is found in the host's folders (here its caches folder, cleaned up after).
  @Test func aDeliveredFileCopiedIntoAHostFolderAndDeletedIsNamed() throws {
    let caches = try #require(FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first)
    let outside = Self.outsideFolder(in: caches)
    defer { try? FileManager.default.removeItem(at: outside) }
    let (found, moved) = runMoving(.copyAndDelete, episodeSize: 2_000_017) { _ in outside }
    #expect(moved == 1)
    #expect(found.count == 1)
    #expect(found.first?["message"]?.description.contains("copied (or moved to another file system)") == true)
    #expect(found.first?["path"]?.description.hasPrefix(outside.path) == true)
  }

  @Test func aDeliveredFileCopiedWithinTheContainerAndDeletedIsNotNamed() {
    let (found, moved) = runMoving(.copyAndDelete) { $0.appendingPathComponent("Documents") }
    #expect(moved == 1)
    #expect(found.isEmpty)
  }

  /// Read in the call and deleted: taken, and no copy anywhere, so nothing to name.
  @Test func aDeliveredFileReadAndDeletedIsNotNamed() {
    let (found, moved) = runMoving(.readAndDelete) { $0.appendingPathComponent("Documents") }
    #expect(moved == 1)
    #expect(found.isEmpty)
  }

  /// An app that keeps a path in a static, as the second manager does with its Documents folder.
  final class UploadingApp: SimulatedAppDelegate {
    let file: URL
    var session: URLSession!
    init(file: URL) { self.file = file }
    func applicationDidFinishLaunching(_ application: SimulatedApplication) {
      session = application.makeURLSession(configuration: .default, delegate: nil, delegateQueue: nil)
      var request = URLRequest(url: URL(string: ContainerPathLintTests.upload)!)
      request.httpMethod = "POST"
      session.uploadTask(with: request, fromFile: file).resume()
    }
    func application(
      _ application: SimulatedApplication, handleEventsForBackgroundURLSession identifier: String,
      completionHandler: @escaping () -> Void
    ) { completionHandler() }
  }

  @Test func aPathFromAnEarlierSimulationsContainerIsNamed() throws {
    // The first simulation computes the path (a `static let` would keep it for the test process).
    let earlier = world(seed: 1)
    earlier.installApp { _ in MovingApp(destination: URL(fileURLWithPath: "/nonexistent")) }
    let kept = try #require(earlier.appContainerDirectory).appendingPathComponent("Documents/report.json")
    try FileManager.default.createDirectory(
      at: kept.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(count: 100).write(to: kept)

    let later = world(seed: 2)
    later.installApp { _ in UploadingApp(file: kept) }
    later.launchApp()
    later.run(until: SimTime(.minutes(1)))
    let found = lints(later, "staleContainerPath")
    #expect(found.count == 1)
    #expect(found.first?["path"]?.description == "<another simulation's container>/Documents/report.json")

    // The same app given its own container's file is not named.
    let own = world(seed: 3)
    let ownFile = URL(fileURLWithPath: own.containerDirectory).appendingPathComponent("report.json")
    try Data(count: 100).write(to: ownFile)
    own.installApp { _ in UploadingApp(file: ownFile) }
    own.launchApp()
    own.run(until: SimTime(.minutes(1)))
    #expect(lints(own, "staleContainerPath").isEmpty)
  }

  @Test func resumeDataFromAnotherSimulationIsNamedAndRefused() throws {
    func resumeData(from sim: Simulation) throws -> Data {
      sim.installApp { PlainAppDelegate($0) }
      sim.schedule(at: .zero) { $0.launchApp() }
      sim.schedule(at: SimTime(.seconds(1))) { sim in
        (sim.currentAppDelegate as? PlainAppDelegate)?.startDownload(BridgeResumeTests.episode)
      }
      sim.schedule(at: SimTime(.seconds(21))) { $0.forceQuitApp() }
      sim.schedule(at: SimTime(.minutes(1))) { $0.launchApp() }
      sim.run(until: SimTime(.minutes(2)))
      let documents = try #require(sim.appContainerDirectory).appendingPathComponent("Documents")
      return try Data(contentsOf: documents.appendingPathComponent("resume.data"))
    }
    let server = ServerModel(resources: [
      ServerResource(url: SimURL(BridgeResumeTests.episode)!, size: 500_000_000, etag: "\"e1\"")
    ])
    let earlier = Simulation(seed: 5, device: .wifi, server: server)
    let data = try resumeData(from: earlier)
    let later = Simulation(seed: 5, device: .wifi, server: server)
    later.installApp { PlainAppDelegate($0) }
    var error: NSError?
    later.schedule(at: .zero) { $0.launchApp() }
    later.schedule(at: SimTime(.seconds(1))) { sim in
      guard let app = sim.currentAppDelegate as? PlainAppDelegate else { return }
      app.session.downloadTask(withResumeData: data).resume()
    }
    later.schedule(at: SimTime(.seconds(10))) { sim in
      error = (sim.currentAppDelegate as? PlainAppDelegate)?.downloads.lastError
    }
    later.run(until: SimTime(.seconds(20)))
    #expect(lints(later, "staleContainerPath").count == 1)
    #expect(error?.code == NSURLErrorCannotWriteToFile)
  }
}
