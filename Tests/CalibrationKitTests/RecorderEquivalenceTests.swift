import BgsimRecorder
import CalibrationKit
import Foundation
import SimKernel
import Testing
import TransferEngine

/// The recorder fed with exactly the callbacks an app receives in a simulation writes the
/// simulation's trace restricted to what the app can see, line for line: same kinds, same
/// fields, same times. (The same app written against Foundation's URLSession, run through
/// BgsimFoundation with `RecordingSessionDelegate`, is the test this one stands in for.)
@Suite struct RecorderEquivalenceTests {
  /// The simulation, readable from the recorder's clock.
  final class SimulationClock: @unchecked Sendable {
    var simulation: Simulation?
    static let epoch: Int64 = 1_790_000_000_000_000_000
    var clock: BgsimRecorder.Clock {
      BgsimRecorder.Clock { [self] in Self.epoch + (simulation?.now.nanoseconds ?? 0) }
    }
  }

  /// A podcast app that downloads one episode per wake, telling the recorder everything it sees.
  final class RecordedPodcastApp: AppUnderTest, SimURLSessionDelegate {
    let recorder: BgsimRecorder
    let episodes: Int
    var session: SimURLSession?
    var handler: (() -> Void)?
    var next = 1

    init(recorder: BgsimRecorder, episodes: Int) {
      self.recorder = recorder
      self.episodes = episodes
    }

    func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
      recorder.applicationDidFinishLaunching(inBackground: reason == .background)
      session = try? app.makeSession(configuration: .background(withIdentifier: "Episodes"), delegate: self)
    }

    func handleEventsForBackgroundURLSession(
      _ app: AppContext, identifier: String, completionHandler: BackgroundCompletionHandler
    ) {
      handler = recorder.handleEvents(forBackgroundURLSession: identifier) { completionHandler() }
    }

    func willEnterForeground(_ app: AppContext) { recorder.applicationWillEnterForeground() }
    func didEnterBackground(_ app: AppContext) { recorder.applicationDidEnterBackground() }

    func downloadNext() {
      guard next <= episodes, let session else { return }
      let url = "https://pod.example.com/ep-\(next).mp3"
      guard let task = try? session.downloadTask(with: url, name: "ep-\(next)") else { return }
      task.taskDescription = "episode \(next)"
      next += 1
      recorder.taskCreated(
        name: task.name, session: session.identifier, taskIdentifier: task.taskIdentifier, url: url,
        isUpload: false)
      task.resume()
    }

    func urlSession(
      _ session: SimURLSession, downloadTask: SimURLSessionTask, didWriteData bytesWritten: Int64,
      totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64
    ) {
      recorder.didWriteData(
        task: downloadTask.name, totalBytesWritten: totalBytesWritten,
        totalBytesExpectedToWrite: totalBytesExpectedToWrite)
    }

    func urlSession(
      _ session: SimURLSession, downloadTask: SimURLSessionTask,
      didFinishDownloadingTo location: DownloadedFile
    ) {
      recorder.didFinishDownloading(
        task: downloadTask.name, bytes: location.bytes, description: downloadTask.taskDescription)
      location.move(to: "Documents/\(downloadTask.name)")
      downloadNext()
    }

    func urlSession(
      _ session: SimURLSession, task: SimURLSessionTask, didCompleteWithError error: SimURLError?
    ) {
      let recorded = error.map {
        RecordedError(
          name: $0.code.name, code: $0.code.rawValue, cancelReason: $0.cancelReason?.name,
          resumeDataOffset: $0.resumeData.flatMap { try? ResumeDataContents($0) }?.offset)
      }
      recorder.didComplete(task: task.name, error: recorded, status: task.statusCode)
    }

    func urlSessionDidFinishEvents(forBackgroundURLSession session: SimURLSession) {
      recorder.didFinishEvents(session: session.identifier)
      handler?()
      handler = nil
    }
  }

  @Test func theRecordersLogIsTheTraceAnAppSees() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("rec-\(UUID().uuidString).jsonl")
    defer { try? FileManager.default.removeItem(at: file) }
    let clock = SimulationClock()
    let recorder = try BgsimRecorder(fileURL: file, clock: clock.clock)
    let cellular = NetworkState(
      interface: .cellular, down: .megabitsPerSecond(10), up: .megabitsPerSecond(2),
      latency: .milliseconds(60),
      expensive: true, constrained: false)
    let device = DeviceModel(
      network: [
        Step(at: SimTime.zero, NetworkState(interface: .wifi)), Step(at: SimTime(.minutes(30)), cellular),
      ],
      power: [Step(at: SimTime.zero, PowerState(charging: true, battery: 0.5))])
    let server = ServerModel(
      resources: (1...5).map {
        ServerResource(url: SimURL("https://pod.example.com/ep-\($0).mp3")!, size: 30_000_000, etag: "e")
      })
    let simulation = Simulation(seed: 4, device: device, server: server)
    clock.simulation = simulation
    let app = RecordedPodcastApp(recorder: recorder, episodes: 5)
    simulation.install(app)
    // What the app's path monitor and battery observer would report, at the same instants.
    for step in device.network {
      simulation.schedule(at: step.at) { _ in
        recorder.networkPathChanged(
          interface: step.value.interface.rawValue, expensive: step.value.expensive,
          constrained: step.value.constrained)
      }
    }
    for step in device.power {
      simulation.schedule(at: step.at) { _ in
        recorder.powerChanged(
          charging: step.value.charging, battery: step.value.battery, lowPowerMode: step.value.lowPowerMode)
      }
    }
    simulation.schedule(at: .zero) { $0.launchApp() }
    simulation.schedule(at: SimTime(.seconds(1))) { _ in app.downloadNext() }
    simulation.schedule(at: SimTime(.seconds(2))) { $0.backgroundApp() }
    simulation.schedule(at: SimTime(.hours(3))) { $0.launchApp() }
    simulation.schedule(at: SimTime(.hours(3) + .seconds(5))) { $0.backgroundApp() }
    simulation.schedule(at: SimTime(.hours(5))) { $0.terminateApp() }
    simulation.run(until: SimTime(.days(2)))

    let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
    #expect(
      lines.first?.contains("\"kind\": \"recorder.start\", \"unixNanoseconds\": 1790000000000000000") == true)
    let expected = ObservableTrace.project(simulation.trace.events).map(\.jsonLine)
    let recorded = Array(lines.dropFirst())
    #expect(recorded.count == expected.count)
    for (i, (r, e)) in zip(recorded, expected).enumerated() where r != e {
      Issue.record("line \(i + 2) differs:\n  recorded \(r)\n  expected \(e)")
      break
    }
    // The run covers what the test claims: wakes, a user return, a path change, progress.
    let kinds = Set(
      expected.compactMap { $0.split(separator: "\"kind\": \"").dropFirst().first?.prefix { $0 != "\"" } })
    for kind in [
      "app.launch", "app.foreground", "app.background", "delegate.handleEvents",
      "delegate.didFinishDownloading",
      "delegate.didComplete", "delegate.didFinishEvents", "app.completionHandlerCalled", "task.created",
      "network.change", "power.change", "delegate.didWriteData",
    ] {
      #expect(kinds.contains(Substring(kind)), "the run has no \(kind)")
    }
    // And the log reads back as a trace.
    let read = try TraceLogReader.read(lines.joined(separator: "\n"), file: file.path)
    #expect(read.count == lines.count)
  }
}
