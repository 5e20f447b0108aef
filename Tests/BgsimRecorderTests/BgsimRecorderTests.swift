import Foundation
import Testing

@testable import BgsimRecorder

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A clock a test moves by hand.
final class ManualClock: @unchecked Sendable {
  var now: Int64 = 1_700_000_000_000_000_000
  var clock: BgsimRecorder.Clock { BgsimRecorder.Clock { [self] in now } }
}

func temporaryLog() -> URL {
  FileManager.default.temporaryDirectory.appendingPathComponent("bgsim-recorder-\(UUID().uuidString).jsonl")
}

func lines(_ url: URL) throws -> [String] {
  try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
}

@Suite struct BgsimRecorderTests {
  @Test func eventsAreTimedFromTheRecordingsStartInTheTraceFormat() throws {
    let url = temporaryLog()
    defer { try? FileManager.default.removeItem(at: url) }
    let time = ManualClock()
    let recorder = try BgsimRecorder(fileURL: url, clock: time.clock)
    recorder.applicationDidFinishLaunching(inBackground: false)
    time.now += 61_500_000_000
    recorder.applicationDidEnterBackground()
    time.now += 3_600_000_000_000 + 250_000
    let handler = recorder.handleEvents(forBackgroundURLSession: "S\"1") {}
    handler()
    #expect(
      try lines(url) == [
        "{\"t\": 0, \"at\": \"0s\", \"kind\": \"recorder.start\", \"unixNanoseconds\": 1700000000000000000, \"format\": \"bgsim trace, format version 1\"}",
        "{\"t\": 0, \"at\": \"0s\", \"kind\": \"app.launch\", \"reason\": \"user\"}",
        "{\"t\": 61500000000, \"at\": \"1m1.5s\", \"kind\": \"app.background\"}",
        "{\"t\": 3661500250000, \"at\": \"1h1m1.50025s\", \"kind\": \"delegate.handleEvents\", \"session\": \"S\\\"1\"}",
        "{\"t\": 3661500250000, \"at\": \"1h1m1.50025s\", \"kind\": \"app.completionHandlerCalled\", \"session\": \"S\\\"1\"}",
      ])
  }

  @Test func aLaterLaunchAppendsAndKeepsTheOrigin() throws {
    let url = temporaryLog()
    defer { try? FileManager.default.removeItem(at: url) }
    let time = ManualClock()
    do {
      let first = try BgsimRecorder(fileURL: url, clock: time.clock)
      first.applicationDidFinishLaunching(inBackground: false)
    }
    time.now += 90_000_000_000
    let second = try BgsimRecorder(fileURL: url, clock: time.clock)
    #expect(second.origin == 1_700_000_000_000_000_000)
    second.applicationDidFinishLaunching(inBackground: true)
    // A wall clock stepped back never makes the log go back.
    time.now -= 10_000_000_000
    second.applicationWillEnterForeground()
    let log = try lines(url)
    #expect(log.count == 4)
    #expect(
      log[2]
        == "{\"t\": 90000000000, \"at\": \"1m30s\", \"kind\": \"app.launch\", \"reason\": \"background\"}")
    #expect(log[3] == "{\"t\": 90000000000, \"at\": \"1m30s\", \"kind\": \"app.foreground\"}")
  }

  @Test func aFileThatIsNotARecordingIsRefused() throws {
    let url = temporaryLog()
    defer { try? FileManager.default.removeItem(at: url) }
    try Data("hello\n".utf8).write(to: url)
    #expect(throws: BgsimRecorder.OpenError.self) { _ = try BgsimRecorder(fileURL: url) }
  }

  @Test(
    arguments: [
      (0, "0s"), (250_000_000, "250ms"), (1_500_000, "1.5ms"), (1_500, "1.5us"), (7, "7ns"),
      (90_000_000_000, "1m30s"), (86_400_000_000_000 + 3_600_000_000_000 + 500_000_000, "1d1h0.5s"),
    ] as [(Int64, String)])
  func durationsAreWrittenAsTheTraceWritesThem(nanoseconds: Int64, text: String) {
    #expect(RecorderText.duration(nanoseconds) == text)
  }

  @Test func errorsAreRecordedByTheirURLErrorNamesWithReasonAndResumeOffset() throws {
    let resume = try PropertyListSerialization.data(
      fromPropertyList: ["NSURLSessionResumeInfoVersion": 2, "NSURLSessionResumeBytesReceived": 1234],
      format: .binary, options: 0)
    let error = NSError(
      domain: NSURLErrorDomain, code: -999,
      userInfo: [NSURLErrorBackgroundTaskCancelledReasonKey: 0, "NSURLSessionDownloadTaskResumeData": resume])
    let recorded = RecordedError(urlError: error)
    #expect(
      recorded
        == RecordedError(
          name: "cancelled", code: -999, cancelReason: "userForceQuitApplication", resumeDataOffset: 1234))
    #expect(RecordedError(urlError: NSError(domain: NSURLErrorDomain, code: -1001)).name == "timedOut")
  }
}

/// The app's own delegate, counting what reaches it.
final class AppDelegateSpy: NSObject, URLSessionDownloadDelegate, @unchecked Sendable {
  var calls: [String] = []
  func urlSession(
    _ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL
  ) {
    calls.append("didFinishDownloading")
  }
  func urlSession(
    _ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64,
    totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64
  ) { calls.append("didWriteData \(totalBytesWritten)") }
  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
    calls.append("didComplete \((error as NSError?)?.code ?? 0)")
  }
}

@Suite struct RecordingSessionDelegateTests {
  /// Calls the proxy as URLSession would (no network: the task is never resumed) and checks it
  /// records each callback, then forwards it.
  @Test func eachCallbackIsRecordedThenForwarded() throws {
    let url = temporaryLog()
    defer { try? FileManager.default.removeItem(at: url) }
    let time = ManualClock()
    let recorder = try BgsimRecorder(fileURL: url, clock: time.clock)
    let spy = AppDelegateSpy()
    let proxy = RecordingSessionDelegate(recorder: recorder, wrapping: spy)
    let session = URLSession(configuration: .default, delegate: proxy, delegateQueue: nil)
    defer { session.invalidateAndCancel() }
    session.sessionDescription = "Feed"
    let task = session.downloadTask(with: URL(string: "https://example.com/ep-1.mp3")!)
    task.taskDescription = "episode 1"
    proxy.taskCreated(task, in: session)
    time.now += 1_000_000_000
    proxy.urlSession(
      session, downloadTask: task, didWriteData: 10, totalBytesWritten: 10, totalBytesExpectedToWrite: 100)
    proxy.urlSession(session, downloadTask: task, didFinishDownloadingTo: URL(fileURLWithPath: "/tmp/x"))
    proxy.urlSession(
      session, task: task, didCompleteWithError: NSError(domain: NSURLErrorDomain, code: -1005))
    proxy.urlSessionDidFinishEvents(forBackgroundURLSession: session)
    proxy.urlSession(session, didBecomeInvalidWithError: nil)
    let id = task.taskIdentifier
    #expect(
      try lines(url).dropFirst()
        == [
          "{\"t\": 0, \"at\": \"0s\", \"kind\": \"task.created\", \"task\": \"Feed#\(id)\", \"session\": \"Feed\", \"taskIdentifier\": \(id), \"url\": \"https://example.com/ep-1.mp3\", \"taskKind\": \"download\"}",
          "{\"t\": 1000000000, \"at\": \"1s\", \"kind\": \"delegate.didWriteData\", \"task\": \"Feed#\(id)\", \"totalBytesWritten\": 10, \"totalBytesExpectedToWrite\": 100}",
          "{\"t\": 1000000000, \"at\": \"1s\", \"kind\": \"delegate.didFinishDownloading\", \"task\": \"Feed#\(id)\", \"bytes\": 0, \"description\": \"episode 1\"}",
          "{\"t\": 1000000000, \"at\": \"1s\", \"kind\": \"delegate.didComplete\", \"task\": \"Feed#\(id)\", \"error\": \"networkConnectionLost\", \"code\": -1005}",
          "{\"t\": 1000000000, \"at\": \"1s\", \"kind\": \"delegate.didFinishEvents\", \"session\": \"Feed\"}",
          "{\"t\": 1000000000, \"at\": \"1s\", \"kind\": \"delegate.didBecomeInvalid\", \"session\": \"Feed\", \"error\": \"none\"}",
        ][...])
    #expect(spy.calls == ["didWriteData 10", "didFinishDownloading", "didComplete -1005"])
  }

  /// A data task: recorded as `data`; its body pieces become one `delegate.didReceiveData` with
  /// their sum, just before the completion; the response question reaches the app's delegate.
  @Test func aDataTaskBodyIsLoggedOnceWithItsTotal() throws {
    let url = temporaryLog()
    defer { try? FileManager.default.removeItem(at: url) }
    let time = ManualClock()
    let recorder = try BgsimRecorder(fileURL: url, clock: time.clock)
    let spy = DataDelegateSpy()
    let proxy = RecordingSessionDelegate(recorder: recorder, wrapping: spy)
    let session = URLSession(configuration: .default, delegate: proxy, delegateQueue: nil)
    defer { session.invalidateAndCancel() }
    session.sessionDescription = "API"
    let task = session.dataTask(with: URL(string: "https://example.com/feed.json")!)
    let failing = session.dataTask(with: URL(string: "https://example.com/other.json")!)
    proxy.taskCreated(task, in: session)
    let response = HTTPURLResponse(
      url: URL(string: "https://example.com/feed.json")!, statusCode: 200, httpVersion: nil, headerFields: nil
    )!
    let disposition = spy.answers
    proxy.urlSession(session, dataTask: task, didReceive: response) { disposition.append($0) }
    proxy.urlSession(session, dataTask: task, didReceive: Data(count: 10))
    proxy.urlSession(session, dataTask: task, didReceive: Data(count: 20))
    proxy.urlSession(session, dataTask: failing, didReceive: Data(count: 5))
    proxy.urlSession(
      session, task: failing, didCompleteWithError: NSError(domain: NSURLErrorDomain, code: -1005))
    proxy.urlSession(session, task: task, didCompleteWithError: nil)
    let id = task.taskIdentifier
    let logged = try lines(url).dropFirst()
    #expect(logged.first?.contains("\"taskKind\": \"data\"") == true)
    #expect(
      logged.filter { $0.contains("delegate.didReceiveData") } == [
        "{\"t\": 0, \"at\": \"0s\", \"kind\": \"delegate.didReceiveData\", \"task\": \"API#\(id)\", \"bytes\": 30}"
      ])
    #expect(logged.last?.contains("\"kind\": \"delegate.didComplete\", \"task\": \"API#\(id)\"") == true)
    #expect(disposition.values == [.allow])
    #expect(spy.calls == ["response 200", "body 10", "body 20", "body 5", "complete -1005", "complete 0"])
  }
}

/// The app's own data delegate, counting what reaches it.
final class DataDelegateSpy: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  /// The dispositions the proxy passed back (called on the test's thread here).
  final class Answers: @unchecked Sendable {
    var values: [URLSession.ResponseDisposition] = []
    func append(_ value: URLSession.ResponseDisposition) { values.append(value) }
  }
  let answers = Answers()
  var calls: [String] = []
  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    calls.append("response \((response as? HTTPURLResponse)?.statusCode ?? 0)")
    completionHandler(.allow)
  }
  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    calls.append("body \(data.count)")
  }
  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
    calls.append("complete \((error as NSError?)?.code ?? 0)")
  }
}
