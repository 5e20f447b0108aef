import BgsimFoundation
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What completion handlers and the delegate receive, in order.
final class HandlerLog: @unchecked Sendable {
  var entries: [String] = []
  var fileSizeInHandler: Int64?
  var progressAtFinish: (Int64, Int64)?
  /// Whether each delegate call ran as an operation of the session's delegate queue.
  var onDelegateQueue: [Bool] = []
  /// Makes `didFinishDownloadingTo` queue an operation of its own on the delegate queue.
  var queuesOperation = false
}

/// A delegate that records every call it gets (it should get none for convenience tasks).
final class RecordingDelegate: NSObject, URLSessionDownloadDelegate, URLSessionDataDelegate,
  @unchecked Sendable
{
  let log: HandlerLog
  init(_ log: HandlerLog) { self.log = log }
  func urlSession(
    _ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL
  ) {
    log.progressAtFinish = (downloadTask.progress.completedUnitCount, downloadTask.progress.totalUnitCount)
    log.onDelegateQueue.append(OperationQueue.current === session.delegateQueue)
    log.entries.append("delegate.didFinishDownloading")
    if log.queuesOperation {
      let log = log
      session.delegateQueue.addOperation { log.entries.append("app operation") }
    }
  }
  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
    log.onDelegateQueue.append(OperationQueue.current === session.delegateQueue)
    log.entries.append("delegate.didComplete \((error as NSError?)?.code ?? 0) state=\(task.state.rawValue)")
  }
}

/// An app whose session kind the test chooses, and which runs `action` once launched.
final class FactoryApp: SimulatedAppDelegate {
  var session: URLSession!
  let background: Bool
  let delegate: RecordingDelegate
  init(background: Bool, log: HandlerLog) {
    self.background = background
    delegate = RecordingDelegate(log)
  }
  func applicationDidFinishLaunching(_ application: SimulatedApplication) {
    let configuration: URLSessionConfiguration =
      background ? .simulatedBackground(withIdentifier: "factory") : .default
    session = application.makeURLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
  }
  func application(
    _ application: SimulatedApplication, handleEventsForBackgroundURLSession identifier: String,
    completionHandler: @escaping () -> Void
  ) { completionHandler() }
}

@Suite struct BridgeFactoryTests {
  static let file = "https://example.com/file.bin"
  static let form = "https://example.com/form"

  func run(
    background: Bool, queuesOperation: Bool = false, _ action: @escaping (URLSession, HandlerLog) -> Void
  ) -> (Simulation, HandlerLog) {
    let server = ServerModel(resources: [
      ServerResource(url: SimURL(Self.file)!, size: 3_000_000, etag: "\"f1\""),
      ServerResource(url: SimURL(Self.form)!, size: 0, status: 201, responseBody: 300, method: "POST"),
    ])
    let sim = Simulation(seed: 4, device: .wifi, server: server)
    let log = HandlerLog()
    log.queuesOperation = queuesOperation
    sim.installApp { _ in FactoryApp(background: background, log: log) }
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in
      action((sim.currentAppDelegate as! FactoryApp).session, log)
    }
    sim.run(until: SimTime(.minutes(5)))
    return (sim, log)
  }

  func lints(_ sim: Simulation) -> [String] {
    sim.trace.events.filter { $0.kind == "lint" }.compactMap { $0["rule"]?.description }
  }

  /// On a device the call raises an exception; the bridge lints it and fails the task instead.
  @Test func aCompletionHandlerOnABackgroundSessionIsLintedAndFails() {
    let (sim, log) = run(background: true) { session, log in
      session.downloadTask(with: URL(string: Self.file)!) { url, _, error in
        log.entries.append("handler url=\(url != nil) error=\((error as NSError?)?.code ?? 0)")
      }.resume()
    }
    #expect(lints(sim) == ["completionHandlerInBackgroundSession"])
    #expect(log.entries == ["handler url=false error=\(NSURLErrorUnsupportedURL)"])
    #expect(!sim.trace.events.contains { $0.kind.hasPrefix("task.") })
  }

  /// A default session calls the handler with the file (there while the handler runs) and
  /// skips the delegate's data and completion methods, as Foundation does.
  @Test func aDefaultSessionCallsTheDownloadHandlerWithTheFile() {
    let (sim, log) = run(background: false) { session, log in
      session.downloadTask(with: URL(string: Self.file)!) { url, response, error in
        let size = url.flatMap {
          try? FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? NSNumber
        }
        log.fileSizeInHandler = size?.int64Value
        log.entries.append(
          "handler status=\((response as? HTTPURLResponse)?.statusCode ?? 0) error=\(error == nil)")
      }.resume()
    }
    #expect(log.entries == ["handler status=200 error=true"])
    #expect(log.fileSizeInHandler == 3_000_000)
    #expect(lints(sim) == ["downloadedFileLost"])  // The handler did not move the file.
  }

  @Test func aDefaultSessionUploadHandlerGetsTheResponseBody() {
    let (_, log) = run(background: false) { session, log in
      var request = URLRequest(url: URL(string: Self.form)!)
      request.httpMethod = "POST"
      session.uploadTask(with: request, from: Data(count: 1_000)) { data, response, error in
        log.entries.append(
          "handler body=\(data?.count ?? -1) status=\((response as? HTTPURLResponse)?.statusCode ?? 0) "
            + "error=\(error == nil)")
      }.resume()
    }
    #expect(log.entries == ["handler body=300 status=201 error=true"])
  }

  /// `progress` and the byte counts are what the delegate sees when it is called.
  @Test func progressFollowsTheByteCounts() {
    let (_, log) = run(background: true) { session, _ in
      session.downloadTask(with: URL(string: Self.file)!).resume()
    }
    #expect(log.entries == ["delegate.didFinishDownloading", "delegate.didComplete 0 state=3"])
    #expect(log.progressAtFinish?.0 == 3_000_000)
    #expect(log.progressAtFinish?.1 == 3_000_000)
    #expect(log.onDelegateQueue == [true, true])
  }

  /// An operation the app queues on the delegate queue from a delegate method runs before the
  /// next delegate call, as on a serial queue in Foundation.
  @Test func anOperationTheAppQueuesRunsBeforeTheNextCall() {
    let (_, log) = run(background: true, queuesOperation: true) { session, _ in
      session.downloadTask(with: URL(string: Self.file)!).resume()
    }
    #expect(
      log.entries == ["delegate.didFinishDownloading", "app operation", "delegate.didComplete 0 state=3"])
    #expect(log.onDelegateQueue == [true, true])
  }
}
