import BgsimFoundation
import Dispatch
import Foundation
import XCTest

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A simulation run from the main thread (XCTest runs its tests there, as `bgsim` does; Swift
/// Testing's run off it): the bridge serves the main queue itself after every delegate call, and
/// on Linux skips that pass when nothing woke the main queue. Blocks a delegate method sends to
/// the main queue, and the blocks those send, still run before simulated time moves.
final class BridgeMainThreadDrainTests: XCTestCase {
  static let urls = (1...6).map { "https://example.com/files/\($0).bin" }

  /// Runs the world on this thread; returns what the app's main-queue blocks recorded and the trace.
  static func run(seed: UInt64) -> (records: [MainBlockRecorder.Record], trace: [String]) {
    let server = ServerModel(
      resources: urls.map { ServerResource(url: SimURL($0)!, size: 3_000_000, etag: "\"v1\"") })
    let sim = Simulation(seed: seed, server: server)
    let recorder = MainBlockRecorder()
    sim.installApp { MainBlockApp($0, recorder: recorder) }
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in
      (sim.currentAppDelegate as? MainBlockApp)?.start(urls.compactMap(URL.init(string:)))
    }
    sim.run(until: SimTime(.minutes(30)))
    return (recorder.records, sim.trace.events.map(\.jsonLine))
  }

  func testMainQueueBlocksOfEveryDelegateCallRunBeforeTimeMoves() throws {
    try XCTSkipUnless(Thread.isMainThread, "XCTest ran this test off the main thread")
    let (records, trace) = Self.run(seed: 7)
    // Every delegate call sent one block, which sent one more, and started a main-actor task:
    // all three ran at the call's instant.
    let calls = records.filter { $0.depth == 0 }
    XCTAssertGreaterThanOrEqual(calls.count, Self.urls.count * 2, "\(records)")
    XCTAssertEqual(records.filter { $0.depth == 1 }.count, calls.count, "\(records)")
    XCTAssertEqual(records.filter { $0.depth == 2 }.count, calls.count, "\(records)")
    for record in records {
      XCTAssertEqual(record.ranAt, record.calledAt, "\(record.what) ran after simulated time moved")
      XCTAssertTrue(record.onMainThread, "\(record.what) ran off the main thread")
    }
    // Each call's blocks ran before the next call was made (in call order, nested after).
    XCTAssertEqual(records.map(\.call), records.map(\.call).sorted(), "\(records)")
    XCTAssertEqual(Self.urls.count, records.filter { $0.what.hasPrefix("complete") && $0.depth == 1 }.count)
    XCTAssertFalse(trace.contains { $0.contains("\"lint\"") }, "\(trace.filter { $0.contains("\"lint\"") })")
  }

  func testTheMainThreadRunIsDeterministic() throws {
    try XCTSkipUnless(Thread.isMainThread, "XCTest ran this test off the main thread")
    let first = Self.run(seed: 3)
    let second = Self.run(seed: 3)
    XCTAssertEqual(first.trace, second.trace)
    XCTAssertEqual(first.records.map(\.what), second.records.map(\.what))
  }
}

/// What the app's main-queue blocks saw.
final class MainBlockRecorder: @unchecked Sendable {
  struct Record {
    var what: String
    /// The delegate call's number, in the order the app got them.
    var call: Int
    /// 0: the block the delegate method sent; 1: the block that block sent; 2: the main-actor
    /// task the delegate method started.
    var depth: Int
    var calledAt: Date
    var ranAt: Date
    var onMainThread: Bool
  }
  var records: [Record] = []
  var calls = 0
}

/// A download manager that reports every delegate call to its UI with `DispatchQueue.main.async`,
/// whose block updates a model with one more `DispatchQueue.main.async`, and to a main-actor
/// model with `Task { @MainActor in ... }`.
final class MainBlockApp: NSObject, SimulatedAppDelegate, URLSessionDownloadDelegate, @unchecked Sendable {
  let application: SimulatedApplication
  let recorder: MainBlockRecorder
  var session: URLSession?

  init(_ application: SimulatedApplication, recorder: MainBlockRecorder) {
    self.application = application
    self.recorder = recorder
  }

  func applicationDidFinishLaunching(_ application: SimulatedApplication) {
    session = application.makeURLSession(
      configuration: .simulatedBackground(withIdentifier: "main-drain"), delegate: self, delegateQueue: nil)
  }

  func application(
    _ application: SimulatedApplication, handleEventsForBackgroundURLSession identifier: String,
    completionHandler: @escaping () -> Void
  ) { completionHandler() }

  func start(_ urls: [URL]) {
    for url in urls { session?.downloadTask(with: url).resume() }
  }

  /// Sends the report of one delegate call to the main queue.
  private func report(_ what: String) {
    recorder.calls += 1
    let call = recorder.calls
    let calledAt = application.now
    DispatchQueue.main.async { [self] in
      record(what, call: call, depth: 0, calledAt: calledAt)
      DispatchQueue.main.async { [self] in record(what, call: call, depth: 1, calledAt: calledAt) }
    }
    Task { @MainActor [self] in record(what, call: call, depth: 2, calledAt: calledAt) }
  }

  private func record(_ what: String, call: Int, depth: Int, calledAt: Date) {
    recorder.records.append(
      .init(
        what: what, call: call, depth: depth, calledAt: calledAt, ranAt: application.now,
        onMainThread: Thread.isMainThread))
  }

  func urlSession(
    _ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64,
    totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64
  ) { report("progress \(downloadTask.originalRequest?.url?.lastPathComponent ?? "?") \(totalBytesWritten)") }

  func urlSession(
    _ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL
  ) {
    let documents = application.containerDirectory.appendingPathComponent("Documents", isDirectory: true)
    try? FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
    let target = documents.appendingPathComponent(
      downloadTask.originalRequest?.url?.lastPathComponent ?? "file")
    try? FileManager.default.removeItem(at: target)
    try? FileManager.default.moveItem(at: location, to: target)
    report("finish \(target.lastPathComponent)")
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
    report(
      "complete \(task.originalRequest?.url?.lastPathComponent ?? "?") \(error == nil ? "ok" : "failed")")
  }
}
