import BgsimFoundation
import Foundation
import SimKernel
import Testing
import TransferEngine

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A Foundation delegate that implements `willBeginDelayedRequest` and answers with a fresher URL.
final class FreshFeedDelegate: NSObject, URLSessionDownloadDelegate, URLSessionDelayedRequestDelegate,
  @unchecked Sendable
{
  var asked: [String] = []
  func urlSession(
    _ session: URLSession, task: URLSessionTask, willBeginDelayedRequest request: URLRequest,
    completionHandler: @escaping @Sendable (URLSession.DelayedRequestDisposition, URLRequest?) -> Void
  ) {
    asked.append(request.url?.absoluteString ?? "")
    completionHandler(.useNewRequest, URLRequest(url: URL(string: "https://example.com/feed/latest")!))
  }
  func urlSession(
    _ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL
  ) {
    try? FileManager.default.removeItem(at: location)
  }
}

final class FeedApp: SimulatedAppDelegate {
  let feeds = FreshFeedDelegate()
  let application: SimulatedApplication
  var session: URLSession!
  init(_ application: SimulatedApplication) { self.application = application }
  func applicationDidFinishLaunching(_ application: SimulatedApplication) {
    session = application.makeURLSession(
      configuration: .simulatedBackground(withIdentifier: "feeds"), delegate: feeds, delegateQueue: nil)
  }
  func application(
    _ application: SimulatedApplication, handleEventsForBackgroundURLSession identifier: String,
    completionHandler: @escaping () -> Void
  ) { completionHandler() }
}

@Suite struct BridgeDelayedRequestTests {
  @Test func aDelegateThatImplementsTheMethodIsAskedAndItsNewRequestIsFetched() throws {
    let server = ServerModel(resources: [
      ServerResource(url: SimURL("https://example.com/feed/old")!, size: 1_000_000),
      ServerResource(url: SimURL("https://example.com/feed/latest")!, size: 2_000_000),
    ])
    let sim = Simulation(seed: 1, device: .wifi, server: server)
    sim.installApp { FeedApp($0) }
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in
      let app = sim.currentAppDelegate as! FeedApp
      let task = app.session.downloadTask(with: URL(string: "https://example.com/feed/old")!)
      task.earliestBeginDate = app.application.now.addingTimeInterval(3_600)
      task.resume()
    }
    sim.run(until: SimTime(.hours(3)))
    let app = try #require(sim.currentAppDelegate as? FeedApp)
    #expect(app.feeds.asked == ["https://example.com/feed/old"])
    let answered = try #require(sim.trace.events.first { $0.kind == "task.delayedRequestAnswered" })
    #expect(answered["disposition"] == .string("useNewRequest"))
    #expect(sim.trace.events.first { $0.kind == "task.finished" }?["bytes"] == .int(2_000_000))
  }
}
