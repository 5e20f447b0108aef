import BgsimFoundation
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Records, for each task a delegate hears of, the request its object reports.
final class RequestRecordingDelegate: NSObject, URLSessionDownloadDelegate, URLSessionDataDelegate,
  URLSessionBackgroundEventsDelegate,
  @unchecked Sendable
{
  /// "url method header" of `originalRequest` and of `currentRequest`, in call order.
  var seen: [String] = []
  var onFinishEvents: (() -> Void)?

  static func describe(_ request: URLRequest?) -> String {
    guard let request else { return "none" }
    let header = request.value(forHTTPHeaderField: "X-Item-ID") ?? "-"
    return "\(request.url?.lastPathComponent ?? "?") \(request.httpMethod ?? "?") \(header)"
  }

  func urlSession(
    _ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL
  ) {
    // Reading the file in the call takes it (the bridge lints a file nobody took).
    let handle = try? FileHandle(forReadingFrom: location)
    _ = try? handle?.read(upToCount: 16)
    try? handle?.close()
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
    seen.append(
      "original \(Self.describe(task.originalRequest)) current \(Self.describe(task.currentRequest))")
  }

  func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
    DispatchQueue.main.async { [weak self] in self?.onFinishEvents?() }
  }
}

final class RequestRecordingApp: SimulatedAppDelegate {
  let application: SimulatedApplication
  let calls = RequestRecordingDelegate()
  var session: URLSession!
  init(_ application: SimulatedApplication) { self.application = application }
  func applicationDidFinishLaunching(_ application: SimulatedApplication) {
    session = application.makeURLSession(
      configuration: .simulatedBackground(withIdentifier: "items"), delegate: calls, delegateQueue: nil)
  }
  func application(
    _ application: SimulatedApplication, handleEventsForBackgroundURLSession identifier: String,
    completionHandler: @escaping () -> Void
  ) {
    calls.onFinishEvents = completionHandler
  }
}

/// A background task outlives the process that made it, and so does its request: the object a
/// relaunched process gets for it answers with the app's own request, not one rebuilt from the URL.
@Suite struct BridgeRelaunchedRequestTests {
  static let episode = "https://example.com/episode.mp3"
  static let photos = "https://example.com/photos"

  @Test func aRelaunchedProcessSeesTheRequestsItsTasksWereMadeWith() throws {
    let server = ServerModel(resources: [
      ServerResource(url: SimURL(Self.episode)!, size: 500_000_000),
      ServerResource(url: SimURL(Self.photos)!, size: 0, status: 201, method: "PUT"),
    ])
    let sim = Simulation(seed: 1, device: .wifi, server: server)
    sim.installApp { RequestRecordingApp($0) }
    var firstProcess: RequestRecordingApp?
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in
      let app = sim.currentAppDelegate as! RequestRecordingApp
      firstProcess = app
      var download = URLRequest(url: URL(string: Self.episode)!)
      download.setValue("episode-7", forHTTPHeaderField: "X-Item-ID")
      app.session.downloadTask(with: download).resume()
      let file = app.application.containerDirectory.appendingPathComponent("photo.jpg")
      try? Data(count: 20_000_000).write(to: file)
      var upload = URLRequest(url: URL(string: Self.photos)!)
      upload.httpMethod = "PUT"
      upload.setValue("photo-3", forHTTPHeaderField: "X-Item-ID")
      app.session.uploadTask(with: upload, fromFile: file).resume()
    }
    sim.schedule(at: SimTime(.seconds(2))) { $0.backgroundApp() }
    sim.schedule(at: SimTime(.seconds(3))) { $0.terminateApp() }
    sim.run(until: SimTime(.hours(1)))

    let relaunched = try #require(sim.currentAppDelegate as? RequestRecordingApp)
    #expect(relaunched !== firstProcess)
    let launches = sim.trace.events.filter { $0.kind == "app.launch" }.map { $0["reason"]?.description ?? "" }
    #expect(launches == ["user", "background"])
    #expect(firstProcess?.calls.seen == [])
    #expect(sim.trace.events.filter { $0.kind == "lint" }.map { $0["rule"]?.description ?? "" } == [])
    #expect(
      relaunched.calls.seen.sorted() == [
        "original episode.mp3 GET episode-7 current episode.mp3 GET episode-7",
        "original photos PUT photo-3 current photos PUT photo-3",
      ])
  }
}
