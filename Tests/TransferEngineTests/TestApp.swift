import SimKernel
import Testing
import TransferEngine

/// A correct app for engine tests: recreates its sessions at launch, stores and calls the
/// completion handler after `didFinishEvents`, moves every file. Closures let a test add behaviour.
final class TestApp: AppUnderTest, SimURLSessionDelegate {
  var configurations: [SessionConfiguration]
  var sessions: [String: SimURLSession] = [:]
  var handlers: [String: BackgroundCompletionHandler] = [:]
  var recreatesSessions = true
  var movesFiles = true
  var callsHandler: CallTiming = .afterEvents
  var onFinishDownloading: ((SimURLSessionTask, AppContext) -> Void)?
  var onLaunch: ((AppContext, LaunchReason) -> Void)?
  /// Answers `willPerformHTTPRedirection` (default: follow).
  var onRedirect: ((SimURLSessionTask, SimURL) -> Bool)?
  var completions: [(String, SimURLError?)] = []
  var resumedAt: [(String, Int64)] = []
  var progress: [(String, Int64)] = []
  /// `didWriteData`'s `bytesWritten`, in order.
  var writeSteps: [Int64] = []
  /// `didSendBodyData` calls: task, bytesSent, totalBytesSent, totalBytesExpectedToSend, and the
  /// task's `countOfBytesSent` then.
  var sent: [(task: String, step: Int64, total: Int64, expected: Int64, count: Int64)] = []
  /// Body and completion calls in order: `sent <total>/<expected>`, `received <bytes>`, `completed <task>`.
  var calls: [String] = []

  enum CallTiming { case afterEvents, immediately, never }

  init(_ configurations: [SessionConfiguration]) { self.configurations = configurations }

  func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
    if recreatesSessions { makeSessions(app) }
    onLaunch?(app, reason)
  }

  func makeSessions(_ app: AppContext) {
    for configuration in configurations {
      sessions[configuration.identifier] = try! app.makeSession(configuration: configuration, delegate: self)
    }
  }

  func handleEventsForBackgroundURLSession(
    _ app: AppContext, identifier: String, completionHandler: BackgroundCompletionHandler
  ) {
    switch callsHandler {
    case .afterEvents: handlers[identifier] = completionHandler
    case .immediately: completionHandler()
    case .never: break
    }
  }

  func urlSession(
    _ session: SimURLSession, downloadTask: SimURLSessionTask, didFinishDownloadingTo location: DownloadedFile
  ) {
    if movesFiles { location.move(to: "Documents/\(downloadTask.name)") }
    onFinishDownloading?(downloadTask, AppContext(simulation: session.simulationForTests))
  }

  func urlSession(_ session: SimURLSession, task: SimURLSessionTask, didCompleteWithError error: SimURLError?)
  {
    completions.append((task.name, error))
    calls.append("completed \(task.name)")
  }

  func urlSession(
    _ session: SimURLSession, downloadTask: SimURLSessionTask, didResumeAtOffset fileOffset: Int64,
    expectedTotalBytes: Int64
  ) {
    resumedAt.append((downloadTask.name, fileOffset))
  }

  func urlSession(
    _ session: SimURLSession, downloadTask: SimURLSessionTask, didWriteData bytesWritten: Int64,
    totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64
  ) {
    progress.append((downloadTask.name, totalBytesWritten))
    writeSteps.append(bytesWritten)
  }

  func urlSession(
    _ session: SimURLSession, task: SimURLSessionTask, didSendBodyData bytesSent: Int64,
    totalBytesSent: Int64,
    totalBytesExpectedToSend: Int64
  ) {
    sent.append((task.name, bytesSent, totalBytesSent, totalBytesExpectedToSend, task.countOfBytesSent))
    calls.append("sent \(totalBytesSent)/\(totalBytesExpectedToSend)")
  }

  func urlSession(_ session: SimURLSession, dataTask: SimURLSessionTask, didReceiveData bytes: Int64) {
    calls.append("received \(bytes)")
  }

  func urlSession(_ session: SimURLSession, task: SimURLSessionTask, willPerformHTTPRedirectionTo url: SimURL)
    -> Bool
  {
    onRedirect?(task, url) ?? true
  }

  func urlSessionDidFinishEvents(forBackgroundURLSession session: SimURLSession) {
    handlers.removeValue(forKey: session.identifier)?()
  }

  /// Answers `willBeginDelayedRequest`; nil plays a delegate without the method.
  var onDelayedRequest: ((SimURLSessionTask, SimURL) -> SimDelayedRequestDisposition)?
  var answersDelayedRequests: Bool { onDelayedRequest != nil }
  func urlSession(
    _ session: SimURLSession, task: SimURLSessionTask, willBeginDelayedRequestTo url: SimURL
  ) -> SimDelayedRequestDisposition {
    onDelayedRequest?(task, url) ?? .continueLoading
  }
}

/// Small builders so each test states only what matters to its rule.
enum Fixture {
  static func url(_ s: String) -> SimURL { SimURL(s)! }

  static func resource(
    _ s: String, size: Int64, etag: String? = "v1", acceptsRanges: Bool = true, status: Int = 200,
    responseBody: Int64 = 0, redirectTo: String? = nil
  ) -> ServerResource {
    ServerResource(
      url: url(s), size: size, etag: etag, acceptsRanges: acceptsRanges, status: status,
      redirectTo: redirectTo.map(url), responseBody: responseBody)
  }

  static func network(
    _ kind: InterfaceKind, at: SimDuration = .zero, down: Double = 4, up: Double = 1, latencyMs: Int64 = 30,
    expensive: Bool? = nil, constrained: Bool = false
  ) -> Step<NetworkState> {
    Step(
      at: SimTime(at),
      NetworkState(
        interface: kind, down: .megabitsPerSecond(down), up: .megabitsPerSecond(up),
        latency: .milliseconds(latencyMs), expensive: expensive, constrained: constrained))
  }

  /// A simulation with `app` installed and launched at time 0.
  static func simulation(
    network: [Step<NetworkState>] = [network(.wifi)],
    power: [Step<PowerState>] = [Step(at: .zero, PowerState())],
    resources: [ServerResource], changes: [ServerChange] = [], faults: [ServerFault] = [],
    policy: Policy = .defaults, app: TestApp, backgroundAppRefresh: Bool = true
  ) -> Simulation {
    let sim = Simulation(
      seed: 1,
      device: DeviceModel(network: network, power: power, backgroundAppRefresh: backgroundAppRefresh),
      server: ServerModel(resources: resources, changes: changes, faults: faults), policy: policy)
    return launched(sim, app)
  }

  /// `sim` checking its invariants (a violation is a test failure), with `app` installed and
  /// launched at time 0.
  static func launched(_ sim: Simulation, _ app: AppUnderTest) -> Simulation {
    sim.checksInvariants = true
    sim.onInvariantViolation = { Issue.record("\($0)") }
    sim.install(app)
    sim.run(until: .zero)
    sim.launchApp()
    return sim
  }

  static func events(_ sim: Simulation, _ kind: String) -> [TraceEvent] {
    sim.trace.events.filter { $0.kind == kind }
  }

  static func time(_ sim: Simulation, _ kind: String, task: String) -> SimTime? {
    sim.trace.events.first { $0.kind == kind && $0["task"] == .string(task) }?.time
  }
}
