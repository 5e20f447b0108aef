import BgsimFoundation
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Records `didWriteData` as Foundation defines it: `bytesWritten` since the last call.
final class ProgressDelegate: NSObject, URLSessionDownloadDelegate, @unchecked Sendable {
  var writes: [(step: Int64, total: Int64, expected: Int64)] = []
  func urlSession(
    _ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64,
    totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64
  ) {
    writes.append((bytesWritten, totalBytesWritten, totalBytesExpectedToWrite))
    order.append("write \(totalBytesWritten)")
  }
  var order: [String] = []
  func urlSession(
    _ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL
  ) { order.append("finished") }
}

final class ProgressApp: SimulatedAppDelegate {
  let delegate = ProgressDelegate()
  var session: URLSession!
  func applicationDidFinishLaunching(_ application: SimulatedApplication) {
    session = application.makeURLSession(configuration: .default, delegate: delegate, delegateQueue: nil)
  }
  func application(
    _ application: SimulatedApplication, handleEventsForBackgroundURLSession identifier: String,
    completionHandler: @escaping () -> Void
  ) { completionHandler() }
}

@Suite struct BridgeProgressTests {
  /// `bytesWritten` is what arrived since the previous call, not the running total.
  @Test func didWriteDataReportsTheBytesSinceTheLastCall() throws {
    let url = "https://example.com/episode.mp3"
    let server = ServerModel(resources: [ServerResource(url: SimURL(url)!, size: 50_000_000, etag: "\"e\"")])
    let sim = Simulation(seed: 3, device: .wifi, server: server)
    let app = ProgressApp()
    sim.installApp { _ in app }
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { _ in app.session.downloadTask(with: URL(string: url)!).resume() }
    sim.run(until: SimTime(.minutes(10)))
    let writes = app.delegate.writes
    // Tenths as they are crossed (at most one a simulated second), then 100% just before the
    // file, as the trace has them.
    #expect(writes.count >= 2 && writes.count <= 10)
    #expect(writes.last?.total == 50_000_000)
    #expect(
      writes.map(\.total)
        == sim.trace.events.filter { $0.kind == "delegate.didWriteData" }.compactMap {
          if case .int(let total)? = $0["totalBytesWritten"] { return total } else { return nil }
        })
    #expect(app.delegate.order.last == "finished")
    var previous: Int64 = 0
    for write in writes {
      #expect(write.step == write.total - previous)
      #expect(write.expected == 50_000_000)
      previous = write.total
    }
    #expect(writes.first.map { $0.step == $0.total } == true)
  }
}
