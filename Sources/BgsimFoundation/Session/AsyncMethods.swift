import Foundation
import SimKernel
import TransferEngine

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A request one of the `async` methods (`data(for:)`, `download(for:)`, `upload(for:from:)`, ...)
/// made on a bridged default session, waiting to enter the simulation. On Linux those methods
/// are swift-corelibs-foundation's own and cannot be overridden; they reach the bridge through
/// the session's only URL protocol, `OfflineURLProtocol`, which hands the request here.
final class AsyncRequest: @unchecked Sendable {
  let request: URLRequest
  weak var session: BridgedSession?
  /// Body bytes of an upload (nil for a data or download request).
  let uploadBytes: Int64?
  private let answer: (Data?, URLResponse?, Error?) -> Void

  init(
    request: URLRequest, session: BridgedSession, uploadBytes: Int64?,
    answer: @escaping (Data?, URLResponse?, Error?) -> Void
  ) {
    self.request = request
    self.session = session
    self.uploadBytes = uploadBytes
    self.answer = answer
  }

  func finish(_ data: Data?, _ response: URLResponse?, _ error: Error?) { answer(data, response, error) }
}

/// What `Simulation.run(awaiting:)` waits for: a request from the awaited code, or its end.
enum AsyncEvent: @unchecked Sendable {
  case request(AsyncRequest)
  case finished
}

/// The meeting point of the awaited code and the simulation's thread: requests are accepted only
/// while `Simulation.run(awaiting:)` runs, and go to it in the order they arrive.
final class AsyncMeeting: @unchecked Sendable {
  private let lock = NSLock()
  private var waiter: AsyncStream<AsyncEvent>.Continuation?

  /// Hands `request` to the running `run(awaiting:)`; false when none runs.
  func offer(_ request: AsyncRequest) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    guard let waiter else { return false }
    waiter.yield(.request(request))
    return true
  }

  func open(_ continuation: AsyncStream<AsyncEvent>.Continuation) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    guard waiter == nil else { return false }
    waiter = continuation
    return true
  }

  func close() {
    lock.lock()
    waiter = nil
    lock.unlock()
  }
}

extension Simulation {
  /// Runs `operation`, app code that awaits the `async` methods of a bridged default session
  /// (`data(for:)`, `data(from:)`, `download(for:)`, `download(from:)`, `upload(for:from:)`,
  /// `upload(for:fromFile:)`), and moves simulated time for it: each request enters the
  /// simulation when it arrives, at the current simulated instant, and the simulation runs until
  /// that request is answered (at most a simulated day), then waits for the next request or for
  /// `operation` to end. Simulated time never moves while `operation` runs, so awaits made one
  /// after another give the same trace on every run. Requests made concurrently (`async let`,
  /// task groups) enter when the simulation next pauses, which depends on real timing. Outside
  /// this call the `async` methods fail at once with -1002 (`bgsimNotSimulated`). Linux only: on
  /// Darwin the methods are the Foundation overlay's own and never reach the bridge.
  public func run<T: Sendable>(awaiting operation: @escaping @Sendable () async throws -> T) async throws -> T
  {
    guard let host = self.bridgeHost else { return try await operation() }
    // `AsyncStream.makeStream()` needs iOS 17 / macOS 14: the initializer's block hands the
    // continuation over at once.
    var made: AsyncStream<AsyncEvent>.Continuation?
    let events = AsyncStream<AsyncEvent> { made = $0 }
    guard let continuation = made, host.asyncMeeting.open(continuation) else { return try await operation() }
    defer { host.asyncMeeting.close() }
    let work = Task { () -> Result<T, Error> in
      defer { continuation.yield(.finished) }
      do { return .success(try await operation()) } catch { return .failure(error) }
    }
    for await event in events {
      guard case .request(let request) = event else { break }
      serve(request, host: host)
    }
    return try await work.value.get()
  }

  /// Makes the request's task with the session's completion-handler factory and runs the
  /// simulation until the handler has answered.
  private func serve(_ request: AsyncRequest, host: BridgeHost) {
    guard let session = request.session else {
      return request.finish(nil, nil, URLError(.cancelled))
    }
    host.enteredFromEngine()
    let answer = AsyncAnswer(simulation: self)
    let handler: @Sendable (Data?, URLResponse?, Error?) -> Void = { data, response, error in
      answer.set(data, response, error)
    }
    let task: URLSessionTask
    if let bytes = request.uploadBytes {
      task = session.uploadTask(
        with: request.request, from: Data(count: Int(bytes)), completionHandler: handler)
    } else {
      task = session.dataTask(with: request.request, completionHandler: handler)
    }
    task.resume()
    if !answer.isSet { run(until: now + .days(1)) }
    if let (data, response, error) = answer.value {
      request.finish(data, response, error)
    } else {
      task.cancel()
      request.finish(nil, nil, URLError(.timedOut))
    }
  }
}

/// The answer a completion handler gave, read on the simulation's thread; giving it stops the
/// simulation's run (the handler runs while the simulation's thread waits for it).
private final class AsyncAnswer: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: (Data?, URLResponse?, Error?)?
  private weak var simulation: Simulation?
  init(simulation: Simulation) { self.simulation = simulation }
  func set(_ data: Data?, _ response: URLResponse?, _ error: Error?) {
    lock.lock()
    stored = (data, response, error)
    lock.unlock()
    simulation?.requestStop()
  }
  var value: (Data?, URLResponse?, Error?)? {
    lock.lock()
    defer { lock.unlock() }
    return stored
  }
  var isSet: Bool { value != nil }
}
