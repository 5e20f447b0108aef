import BgsimFoundation
import BgsimRecorder
import CalibrationKit
import Dispatch
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// The bridge hands `urlSessionDidFinishEvents` to delegates that declare it where Foundation
// does not (Linux, macOS); the proxy has the method.
extension RecordingSessionDelegate: URLSessionBackgroundEventsDelegate {}

/// An app written against Foundation's URLSession, recorded as a shipping app would be: a new
/// `BgsimRecorder` on the same file at every launch, `RecordingSessionDelegate` wrapping its
/// own download delegate, and one call from each app-delegate method.
@Suite struct RecorderBridgeTests {
  static let episodes = 4

  /// Reads the simulation's clock (a device's recorder reads the wall clock).
  final class SimulationClock: @unchecked Sendable {
    weak var simulation: Simulation?
    var clock: BgsimRecorder.Clock {
      BgsimRecorder.Clock { [self] in 1_800_000_000_000_000_000 + (simulation?.now.nanoseconds ?? 0) }
    }
  }

  /// The app's own download delegate: moves each episode into Documents and starts the next.
  final class EpisodeDownloads: NSObject, URLSessionDownloadDelegate, RecorderBackgroundEventsForwarding,
    @unchecked Sendable
  {
    let documents: URL
    weak var proxy: RecordingSessionDelegate?
    var onFinishEvents: (() -> Void)?

    init(container: URL) {
      documents = container.appendingPathComponent("Documents", isDirectory: true)
      try? FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
    }

    func start(_ n: Int, in session: URLSession) {
      guard n <= RecorderBridgeTests.episodes else { return }
      let task = session.downloadTask(with: URL(string: "https://pod.example.com/ep-\(n).mp3")!)
      task.taskDescription = "episode \(n)"
      // Darwin's URLSession reports this itself (didCreateTask); the bridge and Linux do not.
      proxy?.taskCreated(task, in: session)
      task.resume()
    }

    func urlSession(
      _ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL
    ) {
      let name = downloadTask.originalRequest?.url?.lastPathComponent ?? "x"
      try? FileManager.default.moveItem(at: location, to: documents.appendingPathComponent(name))
      let n = Int(name.dropFirst(3).prefix { $0.isNumber }) ?? 0
      start(n + 1, in: session)
    }

    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
      DispatchQueue.main.async { self.onFinishEvents?() }
    }
  }

  final class EpisodeApp: SimulatedAppDelegate {
    let recorder: BgsimRecorder
    let downloads: EpisodeDownloads
    let proxy: RecordingSessionDelegate
    let session: URLSession
    var handler: (() -> Void)?

    init(_ application: SimulatedApplication, log: URL, clock: BgsimRecorder.Clock) {
      recorder = try! BgsimRecorder(fileURL: log, clock: clock)
      downloads = EpisodeDownloads(container: application.containerDirectory)
      proxy = RecordingSessionDelegate(recorder: recorder, wrapping: downloads)
      downloads.proxy = proxy
      session = application.makeURLSession(
        configuration: .simulatedBackground(withIdentifier: "Episodes"), delegate: proxy, delegateQueue: nil)
      downloads.onFinishEvents = { [unowned self] in
        handler?()
        handler = nil
      }
    }

    func applicationDidFinishLaunching(_ application: SimulatedApplication) {
      recorder.applicationDidFinishLaunching(inBackground: application.launchReason == .background)
    }

    func application(
      _ application: SimulatedApplication, handleEventsForBackgroundURLSession identifier: String,
      completionHandler: @escaping () -> Void
    ) {
      handler = recorder.handleEvents(
        forBackgroundURLSession: identifier, completionHandler: completionHandler)
    }

    func applicationDidEnterBackground(_ application: SimulatedApplication) {
      recorder.applicationDidEnterBackground()
    }

    func applicationWillEnterForeground(_ application: SimulatedApplication) {
      recorder.applicationWillEnterForeground()
    }
  }

  @Test func theRecordersLogOfABridgedAppIsTheFilteredTraceEventForEvent() throws {
    let log = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bridge-\(UUID().uuidString).jsonl")
    defer { try? FileManager.default.removeItem(at: log) }
    let clock = SimulationClock()
    let server = ServerModel(
      resources: (1...Self.episodes).map {
        ServerResource(url: SimURL("https://pod.example.com/ep-\($0).mp3")!, size: 40_000_000, etag: "\"e\"")
      })
    let device = DeviceModel(
      network: [Step(at: SimTime.zero, NetworkState(interface: .wifi))],
      power: [Step(at: SimTime.zero, PowerState(charging: true, battery: 0.8))])
    let simulation = Simulation(seed: 6, device: device, server: server)
    clock.simulation = simulation
    // What the app's path monitor reports, from a recorder opened before the first launch.
    let observer = try BgsimRecorder(fileURL: log, clock: clock.clock)
    simulation.schedule(at: .zero) { _ in
      observer.networkPathChanged(interface: "wifi", expensive: false, constrained: false)
      observer.powerChanged(charging: true, battery: 0.8, lowPowerMode: false)
    }
    simulation.installApp { EpisodeApp($0, log: log, clock: clock.clock) }
    simulation.schedule(at: .zero) { $0.launchApp() }
    simulation.schedule(at: SimTime(.seconds(1))) { sim in
      let app = sim.currentAppDelegate as! EpisodeApp
      app.downloads.start(1, in: app.session)
    }
    simulation.schedule(at: SimTime(.seconds(2))) { $0.backgroundApp() }
    simulation.schedule(at: SimTime(.minutes(3))) { $0.terminateApp() }
    simulation.schedule(at: SimTime(.hours(2))) { $0.launchApp() }
    simulation.run(until: SimTime(.days(1)))

    let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init)
    let recorded = lines.filter { !$0.contains("\"kind\": \"recorder.start\"") }
    let expected = ObservableTrace.project(simulation.trace.events).map(\.jsonLine)
    #expect(lines.count - recorded.count == 1, "one recorder.start line, whatever the number of launches")
    #expect(recorded.count == expected.count)
    for (i, (r, e)) in zip(recorded, expected).enumerated() where r != e {
      Issue.record("event \(i + 1) differs:\n  recorded \(r)\n  expected \(e)")
      break
    }
    let launches = expected.filter { $0.contains("\"kind\": \"app.launch\"") }
    #expect(launches.count == 2, "a user launch and a background relaunch: \(launches)")
    #expect(expected.last?.contains("\"kind\": \"app.foreground\"") == true, "the user comes back at 2h")
    #expect(expected.contains { $0.contains("\"kind\": \"app.completionHandlerCalled\"") })
    #expect(expected.filter { $0.contains("\"kind\": \"task.created\"") }.count == Self.episodes)
  }

  /// A data task and an upload whose bodies come in several 64 KiB pieces: the recorder logs
  /// one `delegate.didReceiveData` per body, as the trace does.
  @Test func bodiesInPiecesAreLoggedAsTheTraceHasThem() throws {
    final class BodyApp: SimulatedAppDelegate {
      let recorder: BgsimRecorder
      let proxy: RecordingSessionDelegate
      let session: URLSession
      init(_ application: SimulatedApplication, log: URL, clock: BgsimRecorder.Clock) {
        recorder = try! BgsimRecorder(fileURL: log, clock: clock)
        proxy = RecordingSessionDelegate(recorder: recorder, wrapping: nil)
        session = application.makeURLSession(configuration: .default, delegate: proxy, delegateQueue: nil)
      }
      func applicationDidFinishLaunching(_ application: SimulatedApplication) {
        recorder.applicationDidFinishLaunching(inBackground: application.launchReason == .background)
      }
      func application(
        _ application: SimulatedApplication, handleEventsForBackgroundURLSession identifier: String,
        completionHandler: @escaping () -> Void
      ) { completionHandler() }
      func start() {
        let data = session.dataTask(with: URL(string: "https://api.example.com/feed.json")!)
        proxy.taskCreated(data, in: session)
        data.resume()
        var request = URLRequest(url: URL(string: "https://api.example.com/upload")!)
        request.httpMethod = "POST"
        let upload = session.uploadTask(with: request, from: Data(count: 50_000))
        proxy.taskCreated(upload, in: session)
        upload.resume()
      }
    }
    let log = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bodies-\(UUID().uuidString).jsonl")
    defer { try? FileManager.default.removeItem(at: log) }
    let clock = SimulationClock()
    let server = ServerModel(resources: [
      ServerResource(url: SimURL("https://api.example.com/feed.json")!, size: 200_000),
      ServerResource(
        url: SimURL("https://api.example.com/upload")!, size: 0, status: 201, responseBody: 150_000,
        method: "POST"),
    ])
    let simulation = Simulation(seed: 8, device: .wifi, server: server)
    clock.simulation = simulation
    simulation.installApp { BodyApp($0, log: log, clock: clock.clock) }
    simulation.schedule(at: .zero) { $0.launchApp() }
    simulation.schedule(at: SimTime(.seconds(1))) { ($0.currentAppDelegate as! BodyApp).start() }
    simulation.run(until: SimTime(.minutes(5)))
    let recorded = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init)
      .filter { !$0.contains("\"kind\": \"recorder.start\"") }
    // The world's network and power steps: this app records none (the first test does).
    let expected = ObservableTrace.project(simulation.trace.events).map(\.jsonLine)
      .filter { !$0.contains("\"kind\": \"network.change\"") && !$0.contains("\"kind\": \"power.change\"") }
    #expect(recorded == expected)
    #expect(expected.filter { $0.contains("delegate.didReceiveData") }.count == 2)
  }
}
