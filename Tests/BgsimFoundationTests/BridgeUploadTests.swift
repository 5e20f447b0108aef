import BgsimFoundation
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Uploads a file and records the response body and the session's end.
final class UploadDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  var received = 0
  var completed: [(Int, Int?)] = []
  var invalidated = 0
  var order: [String] = []
  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    order.append("didReceiveResponse \((response as? HTTPURLResponse)?.statusCode ?? 0)")
    completionHandler(.allow)
  }
  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    received += data.count
    order.append("didReceive \(data.count)")
  }
  func urlSession(
    _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
    totalBytesExpectedToSend: Int64
  ) {
    order.append("didSendBodyData \(bytesSent) \(totalBytesSent) of \(totalBytesExpectedToSend)")
    sent.append((bytesSent, totalBytesSent, task.countOfBytesSent))
  }
  /// `didSendBodyData`'s bytesSent and totalBytesSent, and the task's `countOfBytesSent` then.
  var sent: [(step: Int64, total: Int64, count: Int64)] = []
  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
    completed.append(((task.response as? HTTPURLResponse)?.statusCode ?? 0, (error as NSError?)?.code))
    order.append("didComplete")
  }
  func urlSession(_ session: URLSession, didBecomeInvalidWithError error: Error?) { invalidated += 1 }
}

final class UploadApp: SimulatedAppDelegate {
  let application: SimulatedApplication
  let uploads = UploadDelegate()
  var session: URLSession!
  init(_ application: SimulatedApplication) { self.application = application }
  func applicationDidFinishLaunching(_ application: SimulatedApplication) {
    session = application.makeURLSession(
      configuration: .simulatedBackground(withIdentifier: "uploads"), delegate: uploads, delegateQueue: nil)
  }
  func application(
    _ application: SimulatedApplication, handleEventsForBackgroundURLSession identifier: String,
    completionHandler: @escaping () -> Void
  ) { completionHandler() }
}

@Suite struct BridgeUploadTests {
  static let target = "https://example.com/photos"

  @Test func anUploadFromAFileGetsItsResponseAndInvalidationIsReported() throws {
    let server = ServerModel(resources: [
      ServerResource(url: SimURL(Self.target)!, size: 0, status: 201, responseBody: 512, method: "POST")
    ])
    let sim = Simulation(seed: 1, device: .wifi, server: server)
    sim.installApp { UploadApp($0) }
    var app: UploadApp?
    var requestMethod: String?
    var expectedToSend: Int64?
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in
      let a = sim.currentAppDelegate as! UploadApp
      let file = a.application.containerDirectory.appendingPathComponent("photo.jpg")
      try? Data(count: 2_000_000).write(to: file)
      var request = URLRequest(url: URL(string: Self.target)!)
      request.httpMethod = "POST"
      request.setValue("image/jpeg", forHTTPHeaderField: "Content-Type")
      let task = a.session.uploadTask(with: request, fromFile: file)
      requestMethod = task.originalRequest?.httpMethod
      expectedToSend = task.countOfBytesExpectedToSend
      #expect(task.originalRequest?.value(forHTTPHeaderField: "Content-Type") == "image/jpeg")
      task.resume()
    }
    sim.schedule(at: SimTime(.minutes(1))) { sim in
      let a = sim.currentAppDelegate as! UploadApp
      a.session.invalidateAndCancel()
      // Allowed at once after invalidation: no duplicate-identifier lint.
      a.session = a.application.makeURLSession(
        configuration: .simulatedBackground(withIdentifier: "uploads"), delegate: a.uploads,
        delegateQueue: nil)
      app = a
    }
    sim.run(until: SimTime(.minutes(2)))
    let uploads = try #require(app?.uploads)
    #expect(requestMethod == "POST")
    #expect(expectedToSend == 2_000_000)
    #expect(uploads.received == 512)
    #expect(uploads.completed.map(\.0) == [201])
    #expect(uploads.completed.map(\.1) == [nil])
    #expect(uploads.invalidated == 1)
    // Progress as tenths of the body are crossed (at most one a simulated second, so this fast
    // upload skips some), then the whole body, before the response arrives.
    #expect(uploads.sent.count >= 2 && uploads.sent.count <= 10)
    #expect(uploads.sent.map(\.step).reduce(0, +) == 2_000_000)
    #expect(uploads.sent.allSatisfy { $0.count == $0.total && $0.step > 0 })
    #expect(uploads.sent.last?.total == 2_000_000)
    #expect(
      Array(uploads.order.suffix(4)) == [
        "didSendBodyData \(uploads.sent.last?.step ?? 0) 2000000 of 2000000", "didReceiveResponse 201",
        "didReceive 512", "didComplete",
      ])
    #expect(!sim.trace.events.contains { $0.kind == "lint" })
  }
}
