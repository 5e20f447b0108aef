import BgsimFoundation
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Records what a resumable-upload app sees: progress, completions with their errors, and the
/// resume data its error or its pause gave.
final class ResumableUploadDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  /// (task identifier, bytesSent, totalBytesSent) per `didSendBodyData`.
  var sent: [(task: Int, step: Int64, total: Int64)] = []
  /// (task identifier, status, error) per `didCompleteWithError`.
  var completed: [(task: Int, status: Int, error: NSError?)] = []
  /// Set by `didCompleteWithError` when the error carries upload resume data; the app keeps it
  /// in its container, as a real app must to use it after a relaunch.
  var savedTo: URL?
  func urlSession(
    _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
    totalBytesExpectedToSend: Int64
  ) {
    sent.append((task.taskIdentifier, bytesSent, totalBytesSent))
  }
  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
    let nsError = error as NSError?
    completed.append((task.taskIdentifier, (task.response as? HTTPURLResponse)?.statusCode ?? 0, nsError))
    if let data = nsError?.userInfo["NSURLSessionUploadTaskResumeData"] as? Data, let savedTo {
      try? data.write(to: savedTo)
    }
  }
}

/// An app with one session (background by default) that uploads an 8 MB file.
final class ResumableUploadApp: SimulatedAppDelegate {
  let application: SimulatedApplication
  let delegate = ResumableUploadDelegate()
  var session: URLSession!
  let background: Bool
  init(_ application: SimulatedApplication, background: Bool = true) {
    self.application = application
    self.background = background
    delegate.savedTo = application.containerDirectory.appendingPathComponent("upload.resume")
  }
  func applicationDidFinishLaunching(_ application: SimulatedApplication) {
    let configuration: URLSessionConfiguration =
      background ? .simulatedBackground(withIdentifier: "uploads") : .default
    session = application.makeURLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
  }
  func application(
    _ application: SimulatedApplication, handleEventsForBackgroundURLSession identifier: String,
    completionHandler: @escaping () -> Void
  ) { completionHandler() }

  func startUpload() -> URLSessionUploadTask {
    let file = application.containerDirectory.appendingPathComponent("video.mov")
    try? Data(count: 8_000_000).write(to: file)
    var request = URLRequest(url: URL(string: BridgeUploadResumeTests.target)!)
    request.httpMethod = "PUT"
    let task = session.uploadTask(with: request, fromFile: file)
    task.resume()
    return task
  }

  /// `cancel(byProducingResumeData:)` on an upload (iOS 17 / macOS 14 on Darwin; added by the
  /// bridge on Linux). The data arrives on the delegate queue, before simulated time moves.
  func pause(_ task: URLSessionUploadTask, _ got: @escaping @Sendable (Data?) -> Void) {
    if #available(iOS 17, macOS 14, tvOS 17, watchOS 10, *) { task.cancel(byProducingResumeData: got) }
  }

  func continueUpload(_ data: Data) -> URLSessionUploadTask? {
    guard #available(iOS 17, macOS 14, tvOS 17, watchOS 10, *) else { return nil }
    let task = session.uploadTask(withResumeData: data)
    task.resume()
    return task
  }
}

/// A value set from a `@Sendable` callback on the delegate queue and read after the run.
final class Box<T>: @unchecked Sendable {
  var value: T?
}

/// Upload resume data through the bridge (iOS 17, behavior.md "Upload resume data").
@Suite struct BridgeUploadResumeTests {
  static let target = "https://example.com/videos"

  /// A device on `version` uploading at 1 Mbps (8 MB take 64 s), with that version's defaults,
  /// and one target that speaks the resumable upload draft up to `serverDraft`.
  static func world(
    version: String = "26", serverDraft: ResumableUploadDraft? = nil, resumable: Bool = true,
    network: [Step<NetworkState>]? = nil
  ) -> Simulation {
    let up = NetworkState(interface: .wifi, up: .megabitsPerSecond(1))
    var device = DeviceModel(network: network ?? [Step(at: .zero, up)])
    device.iosVersion = IOSVersion(version)!
    var target = ServerResource(url: SimURL(target)!, size: 0, status: 201, responseBody: 64, method: "PUT")
    target.resumableUploads = resumable
    target.resumableUploadDraft = serverDraft
    return Simulation(
      seed: 7, device: device, server: ServerModel(resources: [target]),
      policy: Policy.defaults(for: device.iosVersion))
  }

  static func app(_ sim: Simulation) -> ResumableUploadApp? { sim.currentAppDelegate as? ResumableUploadApp }

  static func events(_ sim: Simulation, _ kind: String) -> [TraceEvent] {
    sim.trace.events.filter { $0.kind == kind }
  }

  static func lints(_ sim: Simulation, _ rule: String) -> [TraceEvent] {
    events(sim, "lint").filter { $0["rule"]?.description == rule }
  }

  /// What a pause-and-continue run observed.
  final class Paused: @unchecked Sendable {
    var data: Data?
    var continued: URLSessionUploadTask?
    var first: URLSessionUploadTask?
  }

  /// Uploads, pauses at 21 s with resume data, continues at 30 s from it.
  static func pauseAndContinue(_ sim: Simulation) -> Paused {
    let paused = Paused()
    sim.installApp { ResumableUploadApp($0) }
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in paused.first = app(sim)?.startUpload() }
    sim.schedule(at: SimTime(.seconds(21))) { sim in
      guard let task = paused.first else { return }
      app(sim)?.pause(task) { paused.data = $0 }
    }
    sim.schedule(at: SimTime(.seconds(30))) { sim in
      guard let data = paused.data else { return }
      paused.continued = app(sim)?.continueUpload(data)
    }
    sim.run(until: SimTime(.minutes(10)))
    return paused
  }

  @Test func aPausedUploadContinuesAtTheServersOffsetAndTheRunIsDeterministic() throws {
    let check = Simulation.checkDeterminism(runs: 2) { () -> Simulation in
      let sim = Self.world()
      _ = Self.pauseAndContinue(sim)
      return sim
    }
    #expect(check.isDeterministic, "\(check)")

    let sim = Self.world()
    let paused = Self.pauseAndContinue(sim)
    let data = try #require(paused.data)
    let cancelled = try #require(Self.events(sim, "task.cancelled").first)
    let offset = try #require(Int64(cancelled["resumeDataOffset"]?.description ?? ""))
    #expect(offset > 1_000_000 && offset < 8_000_000)
    // The pause's bytes are the server's: the new task's progress counts from the offset.
    let first = try #require(paused.first)
    let continued = try #require(paused.continued)
    #expect(continued.originalRequest?.httpMethod == "PUT")
    #expect(continued.originalRequest?.url?.absoluteString == Self.target)
    #expect(continued.countOfBytesExpectedToSend == 8_000_000)
    #expect(continued.state == .completed && continued.countOfBytesSent == 8_000_000)
    let delegate = try #require(Self.app(sim)?.delegate)
    let steps = delegate.sent.filter { $0.task == continued.taskIdentifier }
    let start = try #require(steps.first)
    #expect(start.total - start.step == offset)
    #expect(steps.last?.total == 8_000_000)
    #expect(steps.map(\.step).reduce(0, +) == 8_000_000 - offset)
    let ends = delegate.completed.map { ($0.task, $0.status, $0.error?.code) }
    #expect(ends.count == 2)
    #expect(ends.first?.0 == first.taskIdentifier && ends.first?.2 == NSURLErrorCancelled)
    #expect(ends.last?.0 == continued.taskIdentifier && ends.last?.1 == 201 && ends.last?.2 == nil)
    // Opaque to the app, and not a download's: the bridge refuses it for a download task.
    #expect(!data.isEmpty)
    #expect(Self.events(sim, "lint").isEmpty)
  }

  @Test func aFailedUploadsErrorCarriesResumeDataThatTheCompletionHandlerFormContinues() throws {
    let sim = Self.world(network: [
      Step(at: .zero, NetworkState(interface: .wifi, up: .megabitsPerSecond(1))),
      Step(at: SimTime(.seconds(20)), .offline),
      Step(at: SimTime(.seconds(60)), NetworkState(interface: .wifi, up: .megabitsPerSecond(1))),
    ])
    sim.installApp { ResumableUploadApp($0, background: false) }
    let handled = Box<(Data?, Int, Int?)>()
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in _ = Self.app(sim)?.startUpload() }
    sim.schedule(at: SimTime(.seconds(70))) { sim in
      guard let app = Self.app(sim),
        let data = app.delegate.completed.first?.error?.userInfo[
          "NSURLSessionUploadTaskResumeData"] as? Data
      else { return }
      if #available(iOS 17, macOS 14, tvOS 17, watchOS 10, *) {
        app.session.uploadTask(withResumeData: data) { body, response, error in
          handled.value = (body, (response as? HTTPURLResponse)?.statusCode ?? 0, (error as NSError?)?.code)
        }.resume()
      }
    }
    sim.run(until: SimTime(.minutes(10)))
    let error = try #require(Self.app(sim)?.delegate.completed.first?.error)
    #expect(error.domain == NSURLErrorDomain && error.code == NSURLErrorNetworkConnectionLost)
    #expect(error.userInfo["NSURLSessionUploadTaskResumeData"] is Data)
    #expect(error.userInfo[NSURLSessionDownloadTaskResumeData] == nil)
    #if !canImport(Darwin)
      #expect(NSURLSessionUploadTaskResumeData == "NSURLSessionUploadTaskResumeData")
    #endif
    let result = try #require(handled.value)
    #expect(result.0?.count == 64 && result.1 == 201 && result.2 == nil)
    // The continued task, made at 70 s, sent only what the server lacked: at 1 Mbps the rest of
    // the body takes (size - offset) * 8 microseconds, plus a round trip.
    let failed = try #require(Self.events(sim, "task.failed").first)
    let offset = try #require(Int64(failed["resumeDataOffset"]?.description ?? ""))
    #expect(offset > 1_000_000)
    let finished = try #require(Self.events(sim, "task.finished").last)
    let seconds = Double((finished.time - SimTime(.seconds(70))).nanoseconds) / 1e9
    let rest = Double(8_000_000 - offset) * 8 / 1e6
    #expect(seconds > rest && seconds < rest + 2)
  }

  @Test func aForceQuitsResumeDataKeptInTheContainerContinuesTheUploadAfterARelaunch() throws {
    let sim = Self.world()
    sim.installApp { ResumableUploadApp($0) }
    let continued = Box<URLSessionUploadTask>()
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in _ = Self.app(sim)?.startUpload() }
    sim.schedule(at: SimTime(.seconds(21))) { $0.forceQuitApp() }
    sim.schedule(at: SimTime(.minutes(2))) { $0.launchApp() }
    sim.schedule(at: SimTime(.minutes(3))) { sim in
      guard let app = Self.app(sim), let file = app.delegate.savedTo, let data = try? Data(contentsOf: file)
      else { return }
      continued.value = app.continueUpload(data)
    }
    sim.run(until: SimTime(.minutes(10)))
    let app = try #require(Self.app(sim))
    let cancelled = try #require(app.delegate.completed.first?.error)
    #expect(cancelled.code == NSURLErrorCancelled)
    #expect(cancelled.userInfo[NSURLErrorBackgroundTaskCancelledReasonKey] as? Int == 0)
    let task = try #require(continued.value)
    #expect(task.state == .completed && task.error == nil && task.countOfBytesSent == 8_000_000)
    let steps = app.delegate.sent.filter { $0.task == task.taskIdentifier }
    #expect(steps.map(\.step).reduce(0, +) < 8_000_000)
    #expect(Self.events(sim, "lint").isEmpty)
  }

  @Test func beforeIOS17TheAPIsAreLintedAndGiveNoResumeData() throws {
    let sim = Self.world(version: "16")
    sim.installApp { ResumableUploadApp($0) }
    let outcome = Box<(called: Bool, data: Data?)>()
    let refused = Box<URLSessionUploadTask>()
    var first: URLSessionUploadTask?
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in first = Self.app(sim)?.startUpload() }
    sim.schedule(at: SimTime(.seconds(21))) { sim in
      guard let task = first else { return }
      Self.app(sim)?.pause(task) { outcome.value = (true, $0) }
    }
    sim.schedule(at: SimTime(.seconds(30))) { sim in
      refused.value = Self.app(sim)?.continueUpload(Data("saved by an iOS 17 build".utf8))
    }
    sim.run(until: SimTime(.minutes(2)))
    #expect(outcome.value?.called == true && outcome.value?.data == nil)
    #expect(first?.state == .completed && (first?.error as NSError?)?.code == NSURLErrorCancelled)
    let apis = Self.lints(sim, "apiUnavailable").map { $0["api"]?.description }
    #expect(apis == ["cancel(byProducingResumeData:)", "uploadTask(withResumeData:)"])
    #expect((refused.value?.error as NSError?)?.code == NSURLErrorCannotWriteToFile)
  }

  @Test func aServerWithoutTheDraftGivesNoResumeData() throws {
    let sim = Self.world(resumable: false)
    let paused = Self.pauseAndContinue(sim)
    #expect(paused.first?.state == .completed && paused.data == nil && paused.continued == nil)
    #expect(Self.events(sim, "task.cancelled").first?["resumeDataOffset"] == nil)
    #expect(Self.events(sim, "lint").isEmpty)
  }

  @Test func aServerOnAnOlderDraftThanTheDeviceGivesNoResumeDataAndRestartsFromZero() throws {
    let sim = Self.world(version: "18.1", serverDraft: .v5)
    let paused = Self.pauseAndContinue(sim)
    #expect(paused.data == nil && paused.continued == nil)
    #expect(Self.events(sim, "task.cancelled").first?["resumeDataOffset"] == nil)

    let lost = Self.world(
      version: "18.1", serverDraft: .v5,
      network: [
        Step(at: .zero, NetworkState(interface: .wifi, up: .megabitsPerSecond(1))),
        Step(at: SimTime(.seconds(20)), .offline),
        Step(at: SimTime(.seconds(40)), NetworkState(interface: .wifi, up: .megabitsPerSecond(1))),
      ])
    lost.installApp { ResumableUploadApp($0) }
    lost.schedule(at: .zero) { $0.launchApp() }
    lost.schedule(at: SimTime(.seconds(1))) { sim in _ = Self.app(sim)?.startUpload() }
    lost.run(until: SimTime(.minutes(10)))
    let restart = try #require(Self.events(lost, "task.restartedFromZero").first)
    #expect(restart["reason"]?.description == "uploadDraftMismatch")
    let steps = try #require(Self.app(lost)?.delegate.sent)
    #expect(steps.map(\.step).reduce(0, +) > 8_000_000)
    #expect(Self.app(lost)?.delegate.completed.last?.status == 201)
  }

  @Test func unusableDataFailsTheTaskWithAnErrorAndATraceLine() throws {
    // Upload resume data from another simulation of this test process (kept in a static, say).
    let other = Self.world()
    let foreign = try #require(Self.pauseAndContinue(other).data)
    // A download's resume data.
    let downloads = ServerModel(resources: [
      ServerResource(url: SimURL("https://example.com/f.bin")!, size: 50_000_000, etag: "\"f\"")
    ])
    let dl = Simulation(seed: 1, device: .wifi, server: downloads)
    dl.installApp { PlainAppDelegate($0) }
    let downloadData = Box<Data>()
    dl.schedule(at: .zero) { $0.launchApp() }
    dl.schedule(at: SimTime(.seconds(1))) { sim in
      (sim.currentAppDelegate as? PlainAppDelegate)?.startDownload("https://example.com/f.bin")
    }
    dl.schedule(at: SimTime(.seconds(3))) { sim in
      (sim.currentAppDelegate as? PlainAppDelegate)?.session.getAllTasks { tasks in
        (tasks.first as? URLSessionDownloadTask)?.cancel(byProducingResumeData: { downloadData.value = $0 })
      }
    }
    dl.run(until: SimTime(.seconds(5)))
    let download = try #require(downloadData.value)

    let sim = Self.world()
    sim.installApp { ResumableUploadApp($0) }
    let uploadData = Box<Data>()
    var wrongWay: URLSessionDownloadTask?
    var tasks: [URLSessionUploadTask] = []
    sim.schedule(at: .zero) { $0.launchApp() }
    var first: URLSessionUploadTask?
    sim.schedule(at: SimTime(.seconds(1))) { sim in first = Self.app(sim)?.startUpload() }
    sim.schedule(at: SimTime(.seconds(21))) { sim in
      guard let task = first else { return }
      Self.app(sim)?.pause(task) { uploadData.value = $0 }
    }
    sim.schedule(at: SimTime(.seconds(22))) { sim in
      guard let app = Self.app(sim) else { return }
      for data in [Data("hello".utf8), Data(), download, foreign] {
        if let task = app.continueUpload(data) { tasks.append(task) }
      }
      // An upload's resume data handed to a download task.
      if let data = uploadData.value {
        wrongWay = app.session.downloadTask(withResumeData: data)
        wrongWay?.resume()
      }
    }
    sim.run(until: SimTime(.seconds(30)))
    #expect(tasks.count == 4)
    #expect(tasks.allSatisfy { ($0.error as NSError?)?.code == NSURLErrorCannotWriteToFile })
    #expect((wrongWay?.error as NSError?)?.code == NSURLErrorCannotWriteToFile)
    let problems = Self.events(sim, "bridge.resumeDataRejected").map { $0["problem"]?.description ?? "" }
    #expect(
      problems == [
        "notADictionary", "notAPropertyList", "wrongTaskKind", "fromAnotherSimulation", "wrongTaskKind",
      ])
    #expect(Self.events(sim, "lint").isEmpty)
  }

  @Test func damagedUploadResumeDataNeverTraps() throws {
    let sim = Self.world()
    let data = try #require(Self.pauseAndContinue(sim).data)
    let app = try #require(Self.app(sim))
    var generator = SplitMix64(seed: 27)
    var refused = 0
    for _ in 0..<300 {
      var bytes = Array(data)
      for _ in 0..<Int.random(in: 1...4, using: &generator) {
        bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(
          in: 0...255, using: &generator)
      }
      if bytes.count > 8, Bool.random(using: &generator) {
        bytes.removeLast(Int.random(in: 1...8, using: &generator))
      }
      if let task = app.continueUpload(Data(bytes)), task.taskIdentifier == 0 { refused += 1 }
    }
    sim.run(until: SimTime(.minutes(11)))
    #expect(refused > 0)
  }

  #if !canImport(Darwin)
    /// Foundation's own sessions on Linux cannot resume uploads: the added methods fail the task
    /// with -1002 and never reach the network.
    @Test func aPlainLinuxSessionFailsTheTaskWithUnsupportedURL() throws {
      let session = URLSession(configuration: .default)
      let done = DispatchSemaphore(value: 0)
      let code = Box<Int>()
      session.uploadTask(withResumeData: Data("x".utf8)) { _, _, error in
        code.value = (error as NSError?)?.code
        done.signal()
      }.resume()
      #expect(done.wait(timeout: .now() + 30) == .success)
      #expect(code.value == NSURLErrorUnsupportedURL)
      let got = Box<Bool>()
      let task = session.uploadTask(with: URLRequest(url: URL(string: "bgsim-unsupported:x")!), from: Data())
      task.cancel(byProducingResumeData: { got.value = $0 == nil })
      #expect(got.value == true)
      session.invalidateAndCancel()
    }
  #endif
}
